#include "model/store_preparation.h"

namespace ws {

void StorePreparation::add(const ArgsSpans& blockSpans, std::optional<PackedArgs>&& blockPacked) {
    const bool appended = spans.append(blockSpans);
    if (!packedComplete || blockSpans.empty())
        return;
    if (!appended || !blockPacked || blockPacked->count != blockSpans.size()) {
        packedComplete = false;
        packed.clear(); // useless now: the store packs every chunk itself
        packed.shrink_to_fit();
        return;
    }
    packed.push_back(std::move(*blockPacked));
}

size_t StorePreparation::memoryBytes() const {
    size_t bytes = spans.memoryBytes() + packed.capacity() * sizeof(PackedArgs);
    for (const PackedArgs& p : packed)
        bytes += p.lengths.capacity() + p.text.capacity();
    return bytes;
}

} // namespace ws
