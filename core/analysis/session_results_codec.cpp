#include "analysis/byte_codec.h"
#include "analysis/session_results.h"
#include "model/session.h"

/*
 * The encoding of SessionResults (session_results.h): a magic, kVersion, then every field in a
 * fixed order through ByteWriter. Each struct has one write and one read function below, kept side
 * by side so that they list the same fields in the same order.
 */

namespace ws {

namespace {

constexpr uint32_t kMagic = 0x31525357; // "WSR1"

// Sequences: a count, then the items.
template <typename T, typename Put>
void putAll(ByteWriter& w, const std::vector<T>& items, Put put) {
    w.put(static_cast<uint32_t>(items.size()));
    for (const T& item : items)
        put(w, item);
}
template <typename T, typename Get>
void getAll(ByteReader& r, std::vector<T>& items, Get get) {
    const size_t n = r.count();
    items.assign(n, T{});
    for (T& item : items)
        get(r, item);
}

void put(ByteWriter& w, const StepCosts& s) {
    w.put(s.label);
    w.put(s.start);
    w.put(s.end);
    for (int64_t c : s.cost)
        w.put(c);
}
void get(ByteReader& r, StepCosts& s) {
    r.get(s.label);
    r.get(s.start);
    r.get(s.end);
    for (int64_t& c : s.cost)
        r.get(c);
}

void put(ByteWriter& w, const StepBreakdown& b) {
    putAll(w, b.steps, [](ByteWriter& o, const StepCosts& s) { put(o, s); });
    for (double a : b.average)
        w.put(a);
    w.put(b.averageTotal);
    w.put(b.anyDeviceActivity);
    w.put(b.anyCommunication);
}
void get(ByteReader& r, StepBreakdown& b) {
    getAll(r, b.steps, [](ByteReader& i, StepCosts& s) { get(i, s); });
    for (double& a : b.average)
        r.get(a);
    r.get(b.averageTotal);
    r.get(b.anyDeviceActivity);
    r.get(b.anyCommunication);
}

void put(ByteWriter& w, const DeviceOverview& d) {
    w.put(d.id);
    w.put(d.name);
    w.put(d.amd);
    w.put(d.smCount);
    w.put(d.memoryBytes);
    w.put(d.computeMajor);
    w.put(d.computeMinor);
    w.put(d.kernelCount);
    w.put(d.kernelNs);
    w.put(d.gpuUtilization);
    w.put(d.smEfficiency);
    w.put(d.achievedOccupancy);
    w.put(d.tensorCoreShare);
    w.put(d.occupancyComputed);
    for (const auto& m : d.measured)
        w.put(m);
    w.put(d.peakAllocatedBytes);
}
void get(ByteReader& r, DeviceOverview& d) {
    r.get(d.id);
    r.get(d.name);
    r.get(d.amd);
    r.get(d.smCount);
    r.get(d.memoryBytes);
    r.get(d.computeMajor);
    r.get(d.computeMinor);
    r.get(d.kernelCount);
    r.get(d.kernelNs);
    r.get(d.gpuUtilization);
    r.get(d.smEfficiency);
    r.get(d.achievedOccupancy);
    r.get(d.tensorCoreShare);
    r.get(d.occupancyComputed);
    for (auto& m : d.measured)
        r.get(m);
    r.get(d.peakAllocatedBytes);
}

void put(ByteWriter& w, const Recommendation& x) {
    w.put(x.kind);
    w.put(x.severity);
    w.put(x.device);
    w.put(x.share);
    w.put(x.threshold);
    w.put(x.count);
    w.put(x.total);
    w.put(x.ns);
    w.put(x.meanKernelNs);
    w.put(x.bytes);
    w.put(x.capacityBytes);
    w.put(x.cpuPercent);
    w.put(x.name);
    w.put(x.detail);
    w.put(x.range.has_value());
    if (x.range) {
        w.put(x.range->start);
        w.put(x.range->end);
    }
    w.put(x.slice.has_value());
    if (x.slice) {
        w.put(x.slice->track);
        w.put(x.slice->slice);
    }
}
void get(ByteReader& r, Recommendation& x) {
    r.get(x.kind);
    r.get(x.severity);
    r.get(x.device);
    r.get(x.share);
    r.get(x.threshold);
    r.get(x.count);
    r.get(x.total);
    r.get(x.ns);
    r.get(x.meanKernelNs);
    r.get(x.bytes);
    r.get(x.capacityBytes);
    r.get(x.cpuPercent);
    r.get(x.name);
    r.get(x.detail);
    bool present = false;
    r.get(present);
    if (present) {
        x.range.emplace();
        r.get(x.range->start);
        r.get(x.range->end);
    }
    r.get(present);
    if (present) {
        x.slice.emplace();
        r.get(x.slice->track);
        r.get(x.slice->slice);
    }
}

void put(ByteWriter& w, const OverviewReport& o) {
    w.put(o.valid);
    w.put(o.selection);
    w.put(o.windowStart);
    w.put(o.windowEnd);
    w.put(o.profilerSteps);
    w.put(o.stepSource);
    w.put(o.startup.has_value());
    if (o.startup) {
        w.put(o.startup->start);
        w.put(o.startup->end);
    }
    w.put(static_cast<uint64_t>(o.recordedPieces));
    w.put(o.unrecordedNs);
    w.put(static_cast<uint64_t>(o.unrecordedSteps));
    putAll(w, o.devices, [](ByteWriter& x, const DeviceOverview& d) { put(x, d); });
    put(w, o.breakdown);
    putAll(w, o.recommendations, [](ByteWriter& x, const Recommendation& rec) { put(x, rec); });
}
void get(ByteReader& r, OverviewReport& o) {
    r.get(o.valid);
    r.get(o.selection);
    r.get(o.windowStart);
    r.get(o.windowEnd);
    r.get(o.profilerSteps);
    r.get(o.stepSource);
    bool startup = false;
    r.get(startup);
    if (startup) {
        o.startup.emplace();
        r.get(o.startup->start);
        r.get(o.startup->end);
    }
    uint64_t pieces = 0, unrecordedSteps = 0;
    r.get(pieces);
    r.get(o.unrecordedNs);
    r.get(unrecordedSteps);
    o.recordedPieces = static_cast<size_t>(pieces);
    o.unrecordedSteps = static_cast<size_t>(unrecordedSteps);
    getAll(r, o.devices, [](ByteReader& x, DeviceOverview& d) { get(x, d); });
    get(r, o.breakdown);
    getAll(r, o.recommendations, [](ByteReader& x, Recommendation& rec) { get(x, rec); });
}

void put(ByteWriter& w, const DigestOperators& ops) {
    w.put(ops.present);
    w.put(ops.hasDevice);
    putAll(w, ops.rows, [](ByteWriter& x, const DigestOperatorRow& row) {
        x.put(row.name);
        x.put(row.shapes);
        x.put(row.types);
        x.put(row.callStack);
        x.put(row.calls);
        x.put(row.hostTotalNs);
        x.put(row.hostSelfNs);
        x.put(row.deviceTotalNs);
        x.put(row.deviceSelfNs);
        x.put(row.tcSelfNs);
        x.put(row.tcTotalNs);
        x.put(row.tensorCoreEligible);
    });
}
void get(ByteReader& r, DigestOperators& ops) {
    r.get(ops.present);
    r.get(ops.hasDevice);
    getAll(r, ops.rows, [](ByteReader& x, DigestOperatorRow& row) {
        x.get(row.name);
        x.get(row.shapes);
        x.get(row.types);
        x.get(row.callStack);
        x.get(row.calls);
        x.get(row.hostTotalNs);
        x.get(row.hostSelfNs);
        x.get(row.deviceTotalNs);
        x.get(row.deviceSelfNs);
        x.get(row.tcSelfNs);
        x.get(row.tcTotalNs);
        x.get(row.tensorCoreEligible);
    });
}

void putKernels(ByteWriter& w, const std::vector<DigestKernel>& kernels) {
    putAll(w, kernels, [](ByteWriter& x, const DigestKernel& k) {
        x.put(k.op);
        x.put(k.name);
        x.put(k.calls);
        x.put(k.ns);
    });
}
void getKernels(ByteReader& r, std::vector<DigestKernel>& kernels) {
    getAll(r, kernels, [](ByteReader& x, DigestKernel& k) {
        x.get(k.op);
        x.get(k.name);
        x.get(k.calls);
        x.get(k.ns);
    });
}

void put(ByteWriter& w, const KernelGroup& g) {
    w.put(g.name);
    w.put(g.op);
    for (int32_t v : g.grid)
        w.put(v);
    for (int32_t v : g.block)
        w.put(v);
    w.put(g.firstRow);
    w.put(g.calls);
    w.put(g.totalNs);
    w.put(g.minNs);
    w.put(g.maxNs);
    w.put(g.meanNs);
    w.put(g.percentOfGpu);
    w.put(g.meanBlocksPerSm);
    w.put(g.meanOccupancy);
    w.put(g.tensorCores);
}
void get(ByteReader& r, KernelGroup& g) {
    r.get(g.name);
    r.get(g.op);
    for (int32_t& v : g.grid)
        r.get(v);
    for (int32_t& v : g.block)
        r.get(v);
    r.get(g.firstRow);
    r.get(g.calls);
    r.get(g.totalNs);
    r.get(g.minNs);
    r.get(g.maxNs);
    r.get(g.meanNs);
    r.get(g.percentOfGpu);
    r.get(g.meanBlocksPerSm);
    r.get(g.meanOccupancy);
    r.get(g.tensorCores);
}

} // namespace

std::string encodeSessionResults(const SessionResults& results) {
    ByteWriter w;
    w.put(kMagic);
    w.put(SessionResults::kVersion);
    w.put(results.sliceCount);
    w.put(results.startNs);
    w.put(results.endNs);
    put(w, results.run.overview);
    for (const DigestOperators& ops : results.run.operators)
        put(w, ops);
    w.put(results.run.callStacks);
    w.put(results.run.pyStacks);
    w.put(results.run.argsRead);
    putKernels(w, results.run.kernels);
    putKernels(w, results.run.launched);
    putAll(w, results.kernelGroups, [](ByteWriter& x, const KernelGroup& g) { put(x, g); });
    w.put(results.kernelArgsLoaded);
    w.put(results.distributed);
    return w.take();
}

std::optional<SessionResults> decodeSessionResults(std::string_view blob, const ResultsModelIdentity& model) {
    if (blob.empty())
        return std::nullopt;
    ByteReader r(blob);
    uint32_t magic = 0, version = 0;
    r.get(magic);
    r.get(version);
    if (!r.ok() || magic != kMagic || version != SessionResults::kVersion)
        return std::nullopt;
    SessionResults results;
    r.get(results.sliceCount);
    r.get(results.startNs);
    r.get(results.endNs);
    if (!r.ok() || results.sliceCount != model.sliceCount || results.startNs != model.startNs || results.endNs != model.endNs)
        return std::nullopt; // computed from another model
    get(r, results.run.overview);
    for (DigestOperators& ops : results.run.operators)
        get(r, ops);
    r.get(results.run.callStacks);
    r.get(results.run.pyStacks);
    r.get(results.run.argsRead);
    getKernels(r, results.run.kernels);
    getKernels(r, results.run.launched);
    getAll(r, results.kernelGroups, [](ByteReader& x, KernelGroup& g) { get(x, g); });
    r.get(results.kernelArgsLoaded);
    r.get(results.distributed);
    if (!r.ok() || !r.atEnd())
        return std::nullopt;
    return results;
}

std::optional<SessionResults> decodeSessionResults(std::string_view blob, const Session& session) {
    std::optional<SessionResults> decoded =
        decodeSessionResults(blob, ResultsModelIdentity{session.sliceCount(), session.startNs(), session.endNs()});
    if (!decoded)
        return std::nullopt;
    const SessionResults& results = *decoded;
    // Ids must index this model (a damaged blob must not index past its tables).
    const size_t strings = session.strings().size(), tracks = session.tracks().size();
    for (const KernelGroup& g : results.kernelGroups)
        if (g.name >= strings || g.op >= strings)
            return std::nullopt;
    for (const Recommendation& rec : results.run.overview.recommendations)
        if (rec.slice && (rec.slice->track >= tracks || rec.slice->slice >= session.tracks()[rec.slice->track].sliceCount()))
            return std::nullopt;
    return decoded;
}

} // namespace ws
