#include "cli/captureoptions.h"

#include "format/activitylist.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>

namespace ws {

namespace {

bool toNumber(const std::string& text, double* value) {
    char* end = nullptr;
    *value = std::strtod(text.c_str(), &end);
    return !text.empty() && *end == '\0' && *value >= 0;
}

} // namespace

bool CaptureOptions::parse(const std::vector<std::string>& args, CaptureOptions* out, std::string* error) {
    CaptureOptions o;
    size_t i = 0;
    for (; i < args.size(); ++i) {
        const size_t first = i;
        std::string arg = args[i];
        if (arg == "--") {
            ++i;
            break;
        }
        if (arg.empty() || arg[0] != '-')
            break;
        std::string value;
        bool hasInline = false;
        if (arg.rfind("--", 0) == 0) {
            const size_t eq = arg.find('=');
            if (eq != std::string::npos) {
                value = arg.substr(eq + 1);
                arg = arg.substr(0, eq);
                hasInline = true;
            }
        }
        auto takeValue = [&](std::string* dst) {
            if (hasInline) {
                *dst = value;
                return true;
            }
            if (i + 1 >= args.size()) {
                *error = "option " + arg + " needs a value";
                return false;
            }
            *dst = args[++i];
            return true;
        };
        auto takeNumber = [&](double* dst) {
            std::string text;
            if (!takeValue(&text))
                return false;
            if (!toNumber(text, dst)) {
                *error = "option " + arg + " needs a non-negative number, not '" + text + "'";
                return false;
            }
            return true;
        };
        double number = 0;
        if (arg == "-h" || arg == "--help") {
            o.help = true;
        } else if (arg == "--version") {
            o.version = true;
        } else if (arg == "--stacks") {
            o.stacks = true;
        } else if (arg == "--py-stacks") {
            o.pythonStacks = true;
        } else if (arg == "--py-sample") {
            o.pySampleHz = 1000;
            if (hasInline) {
                char* end = nullptr;
                const long hz = std::strtol(value.c_str(), &end, 10);
                if (value.empty() || *end || hz < 1 || hz > 10000) {
                    *error = "--py-sample takes a rate from 1 to 10000 samples per second, not '" + value + "'";
                    return false;
                }
                o.pySampleHz = static_cast<int>(hz);
            }
        } else if (arg == "--step-function") {
            if (!takeValue(&o.stepFunction))
                return false;
        } else if (arg == "--torch-ops") {
            if (hasInline && value != "shapes") {
                *error = "--torch-ops takes no value or =shapes, not '" + value + "'";
                return false;
            }
            o.torchOps = hasInline ? 2 : 1;
        } else if (arg == "--graph-trace") {
            std::string mode;
            if (!takeValue(&mode))
                return false;
            if (mode != "node" && mode != "graph") {
                *error = "--graph-trace takes node or graph, not '" + mode + "'";
                return false;
            }
            o.graphTrace = mode == "graph" ? 2 : 1;
        } else if (arg == "-q" || arg == "--quiet") {
            o.quiet = true;
        } else if (arg == "-o" || arg == "--output") {
            if (!takeValue(&o.output))
                return false;
        } else if (arg == "--activities") {
            if (!takeValue(&o.activities))
                return false;
        } else if (arg == "--name") {
            if (!takeValue(&o.name))
                return false;
        } else if (arg == "--inject") {
            if (!takeValue(&o.injectLibrary))
                return false;
        } else if (arg == "--sample-hz") {
            if (!takeNumber(&number))
                return false;
            o.sampleHz = static_cast<int64_t>(number);
        } else if (arg == "--flush-ms") {
            if (!takeNumber(&number))
                return false;
            o.flushMs = static_cast<int64_t>(number);
        } else if (arg == "--stack-depth") {
            if (!takeNumber(&number))
                return false;
            if (number < 1 || number > 32) {
                *error = "--stack-depth must be from 1 to 32";
                return false;
            }
            o.stackDepth = static_cast<int64_t>(number);
        } else if (arg == "--delay") {
            if (!takeNumber(&o.delaySeconds))
                return false;
        } else if (arg == "--duration") {
            if (!takeNumber(&o.durationSeconds))
                return false;
        } else if (arg == "--capture-range") {
            std::string range;
            if (!takeValue(&range))
                return false;
            if (range != "cudaProfilerApi") {
                *error = "--capture-range takes cudaProfilerApi, not '" + range + "'";
                return false;
            }
            o.profilerApiRange = true;
        } else if (arg == "--host") {
            if (!takeValue(&o.host))
                return false;
        } else if (arg == "--remote-capture") {
            if (!takeValue(&o.remoteCapture))
                return false;
        } else if (arg == "--remote-dir") {
            if (!takeValue(&o.remoteDir))
                return false;
        } else if (arg == "--stream") {
            o.stream = true;
        } else if (arg == "--check-host") {
            o.checkHost = true;
        } else if (arg == "--deploy") {
            o.deploy = true;
        } else {
            *error = "unknown option " + arg;
            return false;
        }
        // What the host's warpscope-capture needs to record the same way.
        static const char* const kLocalOnly[] = {"-o", "--output", "--host", "--remote-capture", "--remote-dir",
                                                 "--inject", "--stream", "--check-host", "-q", "--quiet",
                                                 "--deploy"};
        if (std::none_of(std::begin(kLocalOnly), std::end(kLocalOnly), [&](const char* l) { return arg == l; }))
            o.forwarded.insert(o.forwarded.end(), args.begin() + static_cast<std::ptrdiff_t>(first),
                               args.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    }
    o.command.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
    if (o.help || o.version || o.checkHost) {
        *out = o;
        return true;
    }
    std::string bad;
    if (!wscap::parseActivities(o.activities, &o.activityBits, &bad)) {
        *error = "unknown activity '" + bad + "' (known: kernel, memcpy, memset, runtime, launches, driver, api, "
                 "sync, memory, nvtx, overhead, nvml, pm, extcorr, allapi, stacks, pystacks, pysample, host, collectives, "
                 "graphs, graphtrace, default, all, "
                 "none)";
        return false;
    }
    if (o.stacks)
        o.activityBits |= wscap::ActStacks;
    if (o.pythonStacks)
        o.activityBits |= wscap::ActPyStacks;
    if (o.pySampleHz > 0)
        o.activityBits |= wscap::ActPySample;
    if (o.torchOps > 0 || !o.stepFunction.empty())
        o.activityBits |= wscap::ActNvtx; // operators and marked steps arrive as NVTX ranges
    if (o.graphTrace == 2)
        o.activityBits |= wscap::ActGraphTrace;
    else if (o.graphTrace == 1)
        o.activityBits &= ~wscap::ActGraphTrace;
    if (o.stream && !o.host.empty()) {
        *error = "--stream is the host side of --host; give one of them";
        return false;
    }
    if (o.output.empty()) {
        *error = "no output directory given (-o OUT)";
        return false;
    }
    if (o.command.empty()) {
        *error = "no program given (warpscope-capture [options] -o OUT -- PROGRAM ARGS...)";
        return false;
    }
    if (o.flushMs == 0 || (o.flushMs > 0 && o.flushMs < 10)) {
        *error = "--flush-ms must be at least 10";
        return false;
    }
    *out = o;
    return true;
}

std::string CaptureOptions::versionLine() {
    return std::string("warpscope-capture ") + WARPSCOPE_CAPTURE_VERSION + " (capture stream format " +
           std::to_string(wscap::kVersionMajor) + "." + std::to_string(wscap::kVersionMinor) + ")";
}

std::string CaptureOptions::usage(const std::string& program) {
    return "Usage: " + program + " [OPTIONS] -o OUT -- PROGRAM [ARGS...]\n"
           "Run PROGRAM with Warpscope's CUPTI injection library and record what it does on the GPU.\n"
           "Each CUDA process (every rank of a distributed job) writes OUT/<host>-<pid>.wscap\n"
           "(never replacing a file: -2, -3, ... when one exists).\n"
           "\n"
           "  -o, --output OUT       directory for the capture streams (created if missing)\n"
           "      --activities LIST  what to record, comma-separated (default: default):\n"
           "                         kernel memcpy memset runtime launches driver api sync\n"
           "                         memory nvtx overhead nvml pm extcorr allapi stacks pystacks\n"
           "                         pysample host collectives, or default/all/none; -NAME removes.\n"
           "                         default = kernel memcpy memset launches memory nvtx\n"
           "                         overhead nvml host collectives, about 0.3 us per launch\n"
           "                         beyond CUPTI's kernel record (launches = every kernel\n"
           "                         launch, copy, allocation and wait, recorded at the driver\n"
           "                         where all of them meet, cuBLASLt, cuDNN and Triton too;\n"
           "                         runtime = the runtime's own calls too, up to 1 us more\n"
           "                         per CUDA call; collectives = NCCL's call sizes through its\n"
           "                         profiler plugin, NCCL >= 2.28; driver = every driver call\n"
           "                         and sync cost 10-30% more; allapi = query-only calls)\n"
           "      --stacks           also record the native call stack of each kernel launch\n"
           "                         (same as adding 'stacks'); symbolized with addr2line\n"
           "                         after PROGRAM exits (file:line where it has debug info)\n"
           "      --stack-depth N    frames per launch stack, 1-32 (default 32; fewer cost less)\n"
           "      --py-stacks        Python programs: also record the Python call stack (file,\n"
           "                         line, function) of each launch, copy, memset and allocation\n"
           "                         (same as adding 'pystacks'); read from the thread's frames\n"
           "                         at each call on Python 3.11-3.13 (up to 1.16x of a step),\n"
           "                         else kept by a profile function on every Python call\n"
           "      --py-sample[=HZ]   Python programs: sample every Python thread's stack HZ times\n"
           "                         a second (default 1000; same as adding 'pysample'), so the\n"
           "                         time between CUDA calls shows what the host did (flame\n"
           "                         graph, why the GPU waits). Read from another thread without\n"
           "                         stopping the program (Python 3.11-3.13); its cost is the\n"
           "                         sampler's own core, about 1.0x of a step\n"
           "      --torch-ops[=shapes]  PyTorch programs: record which operator launched each\n"
           "                         kernel (torch's own ITT range per operator, switched on\n"
           "                         by a startup hook; adds 'nvtx'). Ranges are recorded while\n"
           "                         the launches are new (the first steps, a new phase) and a\n"
           "                         launch after takes the operator of the same launch before:\n"
           "                         with --py-stacks 1.0-1.15x of a PyTorch step, against\n"
           "                         torch.profiler's 1.2-1.9x (capture/README.md; every range:\n"
           "                         WARPSCOPE_TORCH_OPS_WINDOWS=all, 1.1-1.5x). =shapes records\n"
           "                         every operator with its input shapes through NVTX ranges\n"
           "      --step-function NAME  Python 3.12+: mark every call of the function NAME (or\n"
           "                         a qualified name like Trainer.step) as a training step\n"
           "                         (adds 'nvtx'); without it steps come from optimizer steps\n"
           "                         or the repeating launch pattern\n"
           "      --graph-trace=node|graph  CUDA graph replays: node (default) records every\n"
           "                         kernel, copy and set of a replay, each with the operator and\n"
           "                         Python line that captured it ('graphs'); graph records each\n"
           "                         replay as one span and none of its nodes (less per replay,\n"
           "                         no time per kernel inside graphs)\n"
           "      --sample-hz N      NVML and host sampling rate (GPU power, clocks, utilization;\n"
           "                         'host': CPU use of the program and its children, memory\n"
           "                         from /proc, under 1 ms per sample), 0 = off\n"
           "                         (default 10)\n"
           "      --flush-ms N       write buffered records every N ms (default 500); a killed\n"
           "                         program keeps everything up to the last write\n"
           "      --delay S          start recording S seconds after CUDA starts\n"
           "      --duration S       stop recording after S seconds (the program runs on)\n"
           "      --capture-range=cudaProfilerApi  record only between the program's\n"
           "                         cudaProfilerStart and cudaProfilerStop calls\n"
           "                         (torch.cuda.profiler.start/stop), as often as it makes\n"
           "                         them; outside them recording costs almost nothing\n"
           "      --name NAME        name stored in the capture\n"
           "      --inject PATH      injection library to use (default: next to this program)\n"
           "  -q, --quiet            no summary at the end\n"
           "\n"
           "Remote capture (the user's own ssh: keys, agent, known_hosts, ProxyJump apply):\n"
           "      --host HOST        run PROGRAM on HOST under its warpscope-capture and write\n"
           "                         the streams into OUT here as they are recorded; Ctrl+C\n"
           "                         stops PROGRAM there; a dropped connection leaves it running\n"
           "                         and says where its capture is (WARPSCOPE_SSH replaces 'ssh')\n"
           "      --remote-capture PATH  warpscope-capture on HOST (default: on its PATH or in\n"
           "                         ~/.cache/warpscope/bin)\n"
           "      --remote-dir DIR   where HOST keeps the capture (default:\n"
           "                         .cache/warpscope/captures/<OUT's name>-<time>)\n"
           "      --deploy           first copy this warpscope-capture, wscap-dump and the\n"
           "                         injection library into HOST's ~/.cache/warpscope/bin when\n"
           "                         it has none there or another version\n"
           "      --check-host       print this program's version and whether CUDA can be\n"
           "                         loaded here (what --host asks the host first)\n"
           "      --stream           the host side of --host: stream OUT's files on stdout\n"
           "  -h, --help             show this help\n"
           "      --version          show the version\n"
           "\n"
           "Exit status: PROGRAM's exit status (128+N when killed by signal N); 125 when\n"
           "warpscope-capture itself fails, 126 when PROGRAM cannot run, 127 when it is not found.\n"
           "SIGINT and SIGTERM are passed on to PROGRAM.\n";
}

} // namespace ws
