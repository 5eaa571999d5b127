#pragma once

#include "model/event_text_source.h"

#include <memory>

namespace ws {

struct RocprofData;

/*
 * RocprofEventText: the arguments of a rocprofiler-sdk event, rendered on demand from the compact
 * records the importer kept (argRef = table and index, rocprof_data.h) as {"args": {...}}, with
 * Kineto's key names where they exist (grid and block in Kineto's CUDA sense: workgroups and
 * work-items per workgroup). O(fields).
 */
class RocprofEventText : public EventTextSource {
public:
    explicit RocprofEventText(std::shared_ptr<const RocprofData> data) : m_data(std::move(data)) {}
    std::string eventJson(uint64_t argRef) const override;
    bool parallelReads() const override { return true; } // rendered from records in memory

private:
    std::shared_ptr<const RocprofData> m_data;
};

} // namespace ws
