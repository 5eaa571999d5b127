#include "inject/apifilter.h"

#include <cupti.h>

namespace ws {

void disableChattyApiRecords(bool runtime, bool driver) {
    static const CUpti_CallbackId runtimeIds[] = {
        CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorString_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorName_v6050,
        CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetAttributes_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000,
        CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetAttribute_v5000,
        CUPTI_RUNTIME_TRACE_CBID_cudaDriverGetVersion_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaRuntimeGetVersion_v3020,
    };
    static const CUpti_CallbackId driverIds[] = {
        CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState,
        CUPTI_DRIVER_TRACE_CBID_cuKernelGetName,
        CUPTI_DRIVER_TRACE_CBID_cuKernelGetAttribute,
        CUPTI_DRIVER_TRACE_CBID_cuFuncGetName,
        CUPTI_DRIVER_TRACE_CBID_cuFuncGetAttribute,
        CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress_v2,
        CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent,
        CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice,
        CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice_v2,
        CUPTI_DRIVER_TRACE_CBID_cuDeviceGet,
        CUPTI_DRIVER_TRACE_CBID_cuDeviceGetCount,
        CUPTI_DRIVER_TRACE_CBID_cuDeviceGetAttribute,
        CUPTI_DRIVER_TRACE_CBID_cuDriverGetVersion,
        CUPTI_DRIVER_TRACE_CBID_cuGetErrorString,
        CUPTI_DRIVER_TRACE_CBID_cuGetErrorName,
    };
    // Failures only mean a call stays recorded; nothing to report.
    if (runtime)
        for (CUpti_CallbackId id : runtimeIds)
            cuptiActivityEnableRuntimeApi(id, 0);
    if (driver)
        for (CUpti_CallbackId id : driverIds)
            cuptiActivityEnableDriverApi(id, 0);
}

} // namespace ws
