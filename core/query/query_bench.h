#pragma once

#include <memory>
#include <string>

namespace ws {

class Session;

/*
 * The query benchmark (warpscope-cli query FILE SQL --bench): the statement over the virtual tables
 * cold (the analyses it reads built first) and warm, then the same tables copied into a plain
 * in-memory SQLite database (the alternative design: materializing) with the copy's time and
 * memory, and the statement there. Printed as "key: value" lines; `results_equal` says whether the
 * two designs returned the same rows.
 */
std::string queryBenchReport(std::shared_ptr<const Session> session, const std::string& sql);

} // namespace ws
