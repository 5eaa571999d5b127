#include "import/capture_collectives.h"

#include <algorithm>
#include <cctype>

namespace ws {

void CaptureCollectives::add(const wscap::CollectiveRecord& r, const std::unordered_map<uint32_t, std::string>& strings) {
    if (r.correlationId == 0)
        return; // never launched: nothing on the GPU to describe
    auto str = [&](uint32_t id) {
        const auto it = strings.find(id);
        return it == strings.end() ? std::string() : it->second;
    };
    Call c;
    c.func = str(r.funcNameId);
    c.datatype = str(r.datatypeNameId);
    c.count = r.count;
    c.root = r.root;
    c.commHash = r.commHash;
    c.commName = str(r.commNameId);
    c.rank = r.rank;
    c.ranks = r.ranks;
    m_byCorrelation[r.correlationId].push_back(std::move(c));
    ++m_calls;
}

const std::vector<CaptureCollectives::Call>* CaptureCollectives::forCorrelation(uint32_t correlationId) const {
    const auto it = m_byCorrelation.find(correlationId);
    return it == m_byCorrelation.end() ? nullptr : &it->second;
}

std::string CaptureCollectives::torchDtypeName(std::string_view n) {
    static const std::pair<std::string_view, std::string_view> kNames[] = {
        {"ncclInt8", "Char"},          {"ncclUint8", "Byte"},          {"ncclInt32", "Int"},
        {"ncclUint32", "UInt32"},      {"ncclInt64", "Long"},          {"ncclUint64", "UInt64"},
        {"ncclFloat16", "Half"},       {"ncclFloat32", "Float"},       {"ncclFloat64", "Double"},
        {"ncclBfloat16", "BFloat16"},  {"ncclFloat8e4m3", "Float8_e4m3fn"}, {"ncclFloat8e5m2", "Float8_e5m2"},
    };
    for (const auto& [nccl, torch] : kNames)
        if (n == nccl)
            return std::string(torch);
    return std::string(n);
}

std::pair<uint64_t, uint64_t> CaptureCollectives::messageElements(const Call& c) {
    std::string f = c.func;
    std::transform(f.begin(), f.end(), f.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    const uint64_t n = c.ranks > 0 ? static_cast<uint64_t>(c.ranks) : 1;
    if (f == "allgather")
        return {c.count, c.count * n};
    if (f == "reducescatter")
        return {c.count * n, c.count};
    if (f == "alltoall")
        return {c.count * n, c.count * n};
    return {c.count, c.count};
}

} // namespace ws
