#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

namespace ws {

/*
 * sortNearlySorted: stable-sorts `order` by `before` (a strict weak order), cheaply where each
 * element is near its place. Insertion sort first, which moves each element back past the ones it
 * belongs before and no further; once the moves exceed `movesPerElement` per element, the order is
 * far from sorted and std::stable_sort finishes it (the work so far kept: the prefix is sorted).
 *
 * Why: Kineto writes a thread's operators as they end, so a parent follows its children and moves
 * back past its own descendants only, a few places per slice on average. std::stable_sort paid
 * n log n comparisons for that, each reading the slices' times at two places an index apart; on a
 * 10 GB trace's 8 M-slice thread those no longer stayed in cache.
 */
template <typename Less>
void sortNearlySorted(std::span<uint32_t> order, const Less& before, size_t movesPerElement = 16) {
    const size_t n = order.size();
    const size_t budget = n * movesPerElement;
    size_t moves = 0;
    for (size_t i = 1; i < n; ++i) {
        const uint32_t x = order[i];
        if (!before(x, order[i - 1]))
            continue;
        size_t j = i;
        do {
            order[j] = order[j - 1];
            --j;
        } while (j > 0 && before(x, order[j - 1]));
        order[j] = x;
        moves += i - j;
        if (moves > budget) {
            std::stable_sort(order.begin(), order.end(), before);
            return;
        }
    }
}

} // namespace ws
