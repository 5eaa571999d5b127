#pragma once

#include <cstddef>
#include <cstdint>

namespace ws {

/*
 * The line of a bytecode offset from a CPython 3.11+ location table (a code object's co_linetable;
 * CPython's InternalDocs/locations.md), computed here rather than by PyCode_Addr2Line.
 *
 * Why: the Python sampler reads other threads' frames, whose code objects may be freed while it
 * looks (a module's top-level code dies right after the import that ran it). It copies the table
 * with a safe read and decodes the copy, so nothing it follows can fault. Same answer as
 * PyCode_Addr2Line: firstLine for a negative offset, -1 where the table has no line or no entry.
 */
int lineOfOffset(const uint8_t* table, size_t size, int firstLine, int byteOffset);

} // namespace ws
