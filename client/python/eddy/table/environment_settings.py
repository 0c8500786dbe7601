"""How a TableEnvironment runs, as PyFlink's EnvironmentSettings: streaming or batch.

Eddy runs streaming only: a batch environment asks the coordinator for
execution.runtime-mode = BATCH, which it refuses with its message, so creating one raises instead
of silently running in streaming mode.
"""


class EnvironmentSettings:

    def __init__(self, streaming=True):
        self._streaming = streaming

    def is_streaming_mode(self):
        return self._streaming

    @staticmethod
    def in_streaming_mode():
        return EnvironmentSettings(True)

    @staticmethod
    def in_batch_mode():
        return EnvironmentSettings(False)

    @staticmethod
    def new_instance():
        return EnvironmentSettings.Builder()

    class Builder:

        def __init__(self):
            self._streaming = True

        def in_streaming_mode(self):
            self._streaming = True
            return self

        def in_batch_mode(self):
            self._streaming = False
            return self

        def build(self):
            return EnvironmentSettings(self._streaming)
