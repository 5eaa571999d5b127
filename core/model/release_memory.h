#pragma once

namespace ws {

/*
 * releaseMemory: empties a container and gives its buffer back to the allocator.
 *
 * `v = {}` looks like it does this but does not: overload resolution picks the initializer_list
 * assignment (an identity conversion beats constructing a temporary), which is assign() of no
 * elements and keeps the capacity. Temporaries of an import "freed" that way stayed allocated up to
 * the end of their function: on a 525 MB XSpace, the builder's 95 MB of pending flow ends beside the
 * flows made from them.
 */
template <typename Container>
void releaseMemory(Container& c) {
    Container().swap(c);
}

} // namespace ws
