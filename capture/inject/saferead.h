#pragma once

#include <cstddef>
#include <cstring>

namespace ws {

/*
 * safeRead: copies n bytes of this process's memory at address without the risk of a fault. The
 * kernel does the copy (process_vm_readv on our own pid), so an address that was unmapped meanwhile
 * is an error, not a SIGSEGV.
 *
 * Why: the Python sampler (inject/pysampler.h) reads other threads' interpreter frames while those
 * threads run on. A frame it follows may be popped and its memory given back between two reads; the
 * values read may then be stale, which the sampler tolerates (a wrong frame is checked against the
 * code type before use), but a read must never crash the program being profiled. One system call per
 * read costs about a microsecond, paid on the sampler's thread, not on the traced ones.
 */
bool safeRead(const void* address, void* out, size_t n);

template <class T> bool safeLoad(const void* base, long offset, T* out) {
    return base && safeRead(static_cast<const char*>(base) + offset, out, sizeof(T));
}

} // namespace ws
