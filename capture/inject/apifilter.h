#pragma once

namespace ws {

/*
 * The query-only CUDA API calls that frameworks make thousands of times per training step
 * (cudaGetDevice, cudaGetLastError, cuDevicePrimaryCtxGetState, cuKernelGetName, ...). They launch
 * no GPU work and carry no correlation to any, but recording each costs the calling thread time,
 * so they are left out unless the "allapi" activity asks for them (Kineto filters the same way).
 * Call after enabling the RUNTIME/DRIVER kinds: enabling a kind resets its per-API switches.
 */
void disableChattyApiRecords(bool runtime, bool driver);

} // namespace ws
