#pragma once

#include <string>
#include <vector>

namespace ws::cli {

// One function per subcommand; args exclude the program and subcommand names. Each returns an
// exit code (cli_args.h) and prints its own usage errors to stderr.
int runSummary(const std::vector<std::string>& args);
int runImport(const std::vector<std::string>& args);
int runLibrary(const std::vector<std::string>& args);
int runBenchImport(const std::vector<std::string>& args);
int runBenchRemote(const std::vector<std::string>& args);
int runDump(const std::vector<std::string>& args);
int runKernels(const std::vector<std::string>& args);
int runOps(const std::vector<std::string>& args);
int runOverview(const std::vector<std::string>& args);
int runMemory(const std::vector<std::string>& args);
int runDist(const std::vector<std::string>& args);
int runDiff(const std::vector<std::string>& args);
int runExport(const std::vector<std::string>& args);
int runFlame(const std::vector<std::string>& args);
int runGaps(const std::vector<std::string>& args);
int runGraphs(const std::vector<std::string>& args);
int runInference(const std::vector<std::string>& args);
int runRoofline(const std::vector<std::string>& args);
int runNcu(const std::vector<std::string>& args);
int runQuery(const std::vector<std::string>& args);
int runMcp(const std::vector<std::string>& args);

} // namespace ws::cli
