#pragma once

#include <cstddef>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ws::cli {

/* What `warpscope-cli mcp` was started with. */
struct McpOptions {
    std::vector<std::string> roots; // canonical directories; a path outside them is refused
    size_t maxResultBytes = 64 * 1024; // a tool's text beyond this is cut, and the cut is said
};

/*
 * McpServer: the Model Context Protocol over stdio (JSON-RPC 2.0, one message per line) for coding
 * agents: tools that open a trace or session under the roots and ask it what the CLI answers
 * (summary, overview, SQL, kernels, idle gaps, a diff of two runs, the flame graph), each result
 * bounded in size. Sessions stay open between calls by id. Nothing is written anywhere: opening a
 * file imports it in memory (a stored session is read), queries are read-only.
 */
class McpServer {
public:
    explicit McpServer(McpOptions options);
    ~McpServer();
    // Serves until the input ends; returns the exit status.
    int serve(std::istream& in, std::ostream& out);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace ws::cli
