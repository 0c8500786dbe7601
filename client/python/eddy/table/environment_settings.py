"""How a TableEnvironment runs, as PyFlink's EnvironmentSettings: streaming or batch.

A batch environment sets execution.runtime-mode = BATCH in its session: bounded queries run as
batch jobs with final results (docs/sql-reference.md, "Batch mode").
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
