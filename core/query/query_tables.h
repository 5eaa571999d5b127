#pragma once

#include "query/query_table.h"

#include <atomic>
#include <memory>
#include <vector>

namespace ws {

class Session;
class SessionAnalyses;

/*
 * QueryTables: the tables and views of one session (query_schema.h documents them). The tables'
 * getters read the session and the analyses built on first use; `cancel` is checked by those
 * builds (a cancelled build is thrown away, not kept half-done).
 */
struct QueryTables {
    QueryTables(std::shared_ptr<const Session> session, std::shared_ptr<SessionAnalyses> analyses);
    ~QueryTables();

    std::vector<QueryTable> tables;
    std::vector<QueryView> views;
    std::atomic<bool> cancel{false};
    // Before each statement: clears `cancel` and drops what a cancelled statement left half-built.
    void beginStatement();

    struct State;
    std::unique_ptr<State> state;
};

} // namespace ws
