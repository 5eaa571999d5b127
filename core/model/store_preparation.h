#pragma once

#include "model/args_spans.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ws {

/*
 * StorePreparation: what a JSON import that is going to be stored (ImportControl::forStore) does for
 * the store on its one pass through the source:
 * - spans: where each event's args lie (ArgsSpans), by ref: the store copies them from the source
 *   rather than cutting each event object again;
 * - with StorePrep::Packed, so that storing does not read the source again (on the 1 GB benchmark
 *   trace that second read, its hash, the copies of the args and their compression were most of a
 *   store's time):
 *   - packed: the args already in the form of the session file's event_args rows, compressed on
 *     the parse threads while the block's text is at hand, one block per parse block in file
 *     order; complete when they hold every span's args, in the spans' order;
 *   - sourceHash: the source file's content hash over every byte the import read, with the size
 *     and modification time the file had when the import began (the store trusts it while they
 *     hold).
 * Kept by the session until stored (Session::dropStorePreparation).
 */
struct StorePreparation {
    struct PackedArgs {
        uint32_t count = 0; // events, in ref order
        std::string lengths; // each event's stored text length (ColumnCodec int64 column)
        std::string text;    // the texts one after the other (ColumnCodec bytes)
    };
    struct SourceHash {
        uint64_t size = 0;
        int64_t mtimeNs = 0;
        uint64_t hash = 0;
    };

    ArgsSpans spans;
    std::vector<PackedArgs> packed;
    bool packedComplete = false; // set by an import that packs, until a block is not packed
    int packedLevel = 0; // the zstd level of `packed` (a store at another level packs again)
    std::optional<SourceHash> sourceHash;

    // Adds the spans of the next parse block and their args packed (nullopt: they could not be).
    // A block out of order or not packed leaves the packing incomplete, and the store copies from
    // the source, as before.
    void add(const ArgsSpans& blockSpans, std::optional<PackedArgs>&& blockPacked);
    size_t memoryBytes() const;
};

} // namespace ws
