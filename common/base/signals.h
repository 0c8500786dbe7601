// Clean shutdown on SIGTERM/SIGINT for the server binaries: block the signals in every thread
// (call before starting any), then wait for one synchronously on the main thread.
#pragma once

namespace eddy {

void BlockTerminationSignals();
int WaitForTerminationSignal();  // returns the signal number

}  // namespace eddy
