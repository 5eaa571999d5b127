#include "analysis/key_order.h"

#include <algorithm>
#include <array>
#include <utility>

namespace ws {

namespace {

/*
 * Stable LSD radix sort of `v` by the bytes [firstByte, lastByte] of key(x), skipping the bytes on
 * which every key agrees; `tmp` is scratch of v's size. Each pass is one histogram and one scatter,
 * O(n) with sequential reads: on 2.7 M rows 4-5 passes take a fraction of a comparison sort's time.
 */
template <typename T, typename Key>
void radixSort(std::vector<T>& v, std::vector<T>& tmp, int firstByte, int lastByte, Key key) {
    if (v.size() < 2)
        return;
    uint64_t differ = 0;
    const uint64_t first = key(v[0]);
    for (const T& x : v)
        differ |= key(x) ^ first;
    for (int b = firstByte; b <= lastByte; ++b) {
        const int shift = 8 * b;
        if (((differ >> shift) & 0xff) == 0)
            continue;
        std::array<size_t, 256> count{};
        for (const T& x : v)
            ++count[(key(x) >> shift) & 0xff];
        size_t sum = 0;
        for (size_t& c : count) {
            const size_t n = c;
            c = sum;
            sum += n;
        }
        for (const T& x : v)
            tmp[count[(key(x) >> shift) & 0xff]++] = x;
        v.swap(tmp);
    }
}

} // namespace

std::vector<uint32_t> orderByKeys(std::vector<int64_t> keys, bool descending) {
    const size_t n = keys.size();
    int64_t lo = INT64_MAX;
    int64_t hi = INT64_MIN;
    for (int64_t& k : keys) {
        if (k == kMissingSortKey)
            continue;
        if (descending)
            k = -k;
        lo = std::min(lo, k);
        hi = std::max(hi, k);
    }
    std::vector<uint32_t> order(n);
    if (lo == INT64_MAX || static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) < 0xffffffffull) {
        // (key - lo) << 32 | row, absent keys 0xffffffff: sorting by the upper half alone, stably,
        // leaves equal keys in row order. Packed in the keys' own buffer, whose pages the caller
        // has touched: at 2.7 M rows each new buffer is 21 MB of fresh pages, a large part of a sort.
        for (size_t i = 0; i < n; ++i) {
            const uint64_t k = keys[i] == kMissingSortKey ? 0xffffffffull : static_cast<uint64_t>(keys[i] - lo);
            keys[i] = static_cast<int64_t>(k << 32 | i);
        }
        std::vector<int64_t> tmp(n);
        radixSort(keys, tmp, 4, 7, [](int64_t x) { return static_cast<uint64_t>(x); });
        for (size_t i = 0; i < n; ++i)
            order[i] = static_cast<uint32_t>(keys[i]);
        return order;
    }
    // Wide keys: (key - lo, row) pairs of the present keys, sorted stably by key; absent rows after
    // them in row order.
    struct Keyed {
        uint64_t key;
        uint32_t row;
    };
    const size_t missingCount = static_cast<size_t>(std::count(keys.begin(), keys.end(), kMissingSortKey));
    std::vector<Keyed> keyed(n - missingCount), tmp(n - missingCount);
    std::vector<uint32_t> missing;
    missing.reserve(missingCount);
    for (size_t i = 0, k = 0; i < n; ++i) {
        if (keys[i] == kMissingSortKey)
            missing.push_back(static_cast<uint32_t>(i));
        else
            keyed[k++] = {static_cast<uint64_t>(keys[i]) - static_cast<uint64_t>(lo), static_cast<uint32_t>(i)};
    }
    radixSort(keyed, tmp, 0, 7, [](const Keyed& x) { return x.key; });
    for (size_t i = 0; i < keyed.size(); ++i)
        order[i] = keyed[i].row;
    std::copy(missing.begin(), missing.end(), order.begin() + static_cast<std::ptrdiff_t>(keyed.size()));
    return order;
}

} // namespace ws
