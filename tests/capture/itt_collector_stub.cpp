// Stands in for the injection library in the torch hook's tests: says it is PyTorch's ITT collector
// (inject/ittrecorder.cpp exports the same function), without CUDA or CUPTI.
extern "C" __attribute__((visibility("default"))) int warpscope_itt_tasks_seen(void) { return 1; }
