#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ws {

/*
 * AddressMap: address -> index, open addressing with linear probing and backward-shift deletion,
 * for the snapshot importer's live allocations (one find and one insert or erase per trace entry:
 * std::unordered_map's node per entry was 15 % of a GB import). Keys are any int64 but INT64_MIN.
 * The table doubles at 50 % load. O(1) expected per operation.
 */
class AddressMap {
public:
    static constexpr uint32_t kMissing = UINT32_MAX;

    uint32_t find(int64_t key) const {
        if (m_keys.empty())
            return kMissing;
        for (size_t i = slot(key);; i = (i + 1) & m_mask) {
            if (m_keys[i] == key)
                return m_values[i];
            if (m_keys[i] == kEmpty)
                return kMissing;
        }
    }
    void set(int64_t key, uint32_t value) {
        if ((m_size + 1) * 2 > m_keys.size())
            grow();
        size_t i = slot(key);
        while (m_keys[i] != kEmpty && m_keys[i] != key)
            i = (i + 1) & m_mask;
        if (m_keys[i] == kEmpty)
            ++m_size;
        m_keys[i] = key;
        m_values[i] = value;
    }
    bool erase(int64_t key) {
        if (m_keys.empty())
            return false;
        size_t i = slot(key);
        while (m_keys[i] != key) {
            if (m_keys[i] == kEmpty)
                return false;
            i = (i + 1) & m_mask;
        }
        // Backward shift: move later entries of the probe run into the hole.
        for (size_t j = (i + 1) & m_mask; m_keys[j] != kEmpty; j = (j + 1) & m_mask) {
            const size_t home = slot(m_keys[j]);
            if (((j - home) & m_mask) >= ((j - i) & m_mask)) {
                m_keys[i] = m_keys[j];
                m_values[i] = m_values[j];
                i = j;
            }
        }
        m_keys[i] = kEmpty;
        --m_size;
        return true;
    }
    // Starts fetching the slot where `key` would be (a batch of lookups overlaps their cache misses).
    void prefetch(int64_t key) const {
        if (!m_keys.empty())
            __builtin_prefetch(m_keys.data() + slot(key));
    }
    size_t size() const { return m_size; }
    template <typename Fn> void forEach(Fn fn) const {
        for (size_t i = 0; i < m_keys.size(); ++i)
            if (m_keys[i] != kEmpty)
                fn(m_keys[i], m_values[i]);
    }

private:
    static constexpr int64_t kEmpty = INT64_MIN;
    size_t slot(int64_t key) const {
        // Addresses are 512-byte aligned: mix the bits before masking.
        uint64_t h = static_cast<uint64_t>(key) * 0x9E3779B97F4A7C15ull;
        return static_cast<size_t>(h >> 20) & m_mask;
    }
    void grow() {
        std::vector<int64_t> keys(m_keys.empty() ? 1024 : m_keys.size() * 2, kEmpty);
        std::vector<uint32_t> values(keys.size());
        keys.swap(m_keys);
        values.swap(m_values);
        m_mask = m_keys.size() - 1;
        m_size = 0;
        for (size_t i = 0; i < keys.size(); ++i)
            if (keys[i] != kEmpty)
                set(keys[i], values[i]);
    }
    std::vector<int64_t> m_keys;
    std::vector<uint32_t> m_values;
    size_t m_mask = 0;
    size_t m_size = 0;
};

} // namespace ws
