#pragma once

#include "analysis/distributed.h"

#include <optional>
#include <string>
#include <string_view>

namespace ws {

/*
 * Text forms of the Distributed view.
 *
 * A rank's block ("distributed" in `warpscope-cli summary --json`) is columnar so a thousand of
 * them parse quickly: steps and communication nodes as parallel arrays, node names interned in
 * `names`, every node's ranges flattened into `ranges` ([start, end] pairs, `range_count` per
 * node). Version 1; readers refuse other versions with a message.
 *
 * The job form (`warpscope-cli dist --json`) carries the per-worker tables: workers (steps with
 * computation/communication/overlap/other and synchronizing/transfer, means), the communication
 * ops table and the per-step stragglers. Field names match tests/core/reference_distributed.py.
 */
std::string rankDistributedToJson(const RankDistributed& rank);
// Accepts a block or a whole summary object that holds one under "distributed". Empty with
// *error set when the text is not such a block.
std::optional<RankDistributed> rankDistributedFromJson(std::string_view text, std::string* error);

std::string jobDistributedToJson(const JobDistributed& job);

// CSV tables of a job: "workers" (one row per worker: GPU, steps, means, utilization, memory,
// straggler marks), "steps" (one row per worker and step), "ops" (the communication ops table).
enum class DistributedTable { Workers, Steps, Ops };
std::string jobDistributedToCsv(const JobDistributed& job, DistributedTable table);

} // namespace ws
