#include "launch/stacksymbolizer.h"

#include "format/wscapreader.h"
#include "format/wscapwriter.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cstdint>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <map>
#include <set>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ws::stacksymbolizer {

using namespace wscap;

namespace {

// Offsets per addr2line run: keeps the argument vector far below ARG_MAX.
constexpr size_t kBatch = 512;

bool isExecutable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

bool isFile(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool isAddressLine(const std::string& line) {
    return line.size() > 2 && line[0] == '0' && line[1] == 'x' &&
           line.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos;
}

// "file:line", "file:line (discriminator 2)", "??:0", "??:?", "file:?"
void parseLocation(std::string text, Frame* f) {
    if (const size_t d = text.find(" (discriminator "); d != std::string::npos)
        text.resize(d);
    const size_t colon = text.rfind(':');
    std::string file = colon == std::string::npos ? text : text.substr(0, colon);
    const std::string line = colon == std::string::npos ? std::string() : text.substr(colon + 1);
    if (file == "??")
        file.clear();
    f->file = file;
    f->line = !line.empty() && line.find_first_not_of("0123456789") == std::string::npos
                  ? static_cast<uint32_t>(std::strtoul(line.c_str(), nullptr, 10))
                  : 0;
}

// Runs argv with stdout captured; false with *error when it cannot start or fails.
bool capture(const std::vector<std::string>& args, std::string* out, std::string* error) {
    std::vector<char*> argv;
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        *error = std::string("cannot create a pipe: ") + std::strerror(errno);
        return false;
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        *error = std::string("cannot fork: ") + std::strerror(errno);
        ::close(fds[0]);
        ::close(fds[1]);
        return false;
    }
    if (pid == 0) {
        // Only async-signal-safe calls from here (the caller may be multi-threaded, e.g. the GUI).
        ::dup2(fds[1], 1);
        const int null = ::open("/dev/null", O_RDWR);
        if (null >= 0) {
            ::dup2(null, 0);
            ::dup2(null, 2);
        }
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    ::close(fds[1]);
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        out->append(buf, static_cast<size_t>(n));
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        *error = args[0] + " failed on " + args[args.size() > 6 ? 6 : args.size() - 1] +
                 (WIFEXITED(status) ? " (exit status " + std::to_string(WEXITSTATUS(status)) + ")" : " (killed)");
        return false;
    }
    return true;
}

/*
 * Exported function ranges of an ELF file without a full symbol table. addr2line then names an
 * address after the nearest preceding .dynsym symbol even when the code belongs to a hidden
 * function far past its end (a stripped libcudnn's internals all "belong" to some cudnnXxx entry
 * point); an address outside every range gets no name rather than a wrong one. *full is true (and
 * nothing is returned) when the file has .symtab, so addr2line's names can be trusted.
 */
std::vector<std::pair<uint64_t, uint64_t>> exportedFunctions(const std::string& path, bool* full) {
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    *full = true; // when in doubt, keep addr2line's answer
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ranges;
    auto readAt = [fd](void* dst, size_t n, uint64_t at) {
        return ::pread(fd, dst, n, static_cast<off_t>(at)) == static_cast<ssize_t>(n);
    };
    Elf64_Ehdr eh{};
    if (readAt(&eh, sizeof eh, 0) && std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
        eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shnum > 0 &&
        eh.e_shnum < 65535) {
        std::vector<Elf64_Shdr> sections(eh.e_shnum);
        if (readAt(sections.data(), sections.size() * sizeof(Elf64_Shdr), eh.e_shoff)) {
            const bool symtab = std::any_of(sections.begin(), sections.end(),
                                            [](const Elf64_Shdr& sh) { return sh.sh_type == SHT_SYMTAB; });
            for (const Elf64_Shdr& sh : sections) {
                if (symtab || sh.sh_type != SHT_DYNSYM || sh.sh_entsize != sizeof(Elf64_Sym) ||
                    sh.sh_size > (256u << 20))
                    continue;
                std::vector<Elf64_Sym> syms(sh.sh_size / sizeof(Elf64_Sym));
                if (!readAt(syms.data(), syms.size() * sizeof(Elf64_Sym), sh.sh_offset))
                    continue;
                *full = false;
                for (const Elf64_Sym& y : syms)
                    if (ELF64_ST_TYPE(y.st_info) == STT_FUNC && y.st_shndx != SHN_UNDEF && y.st_size > 0)
                        ranges.emplace_back(y.st_value, y.st_value + y.st_size);
            }
        }
    }
    ::close(fd);
    std::sort(ranges.begin(), ranges.end());
    return ranges;
}

// True when some range holds v (ranges sorted by start; they may nest or overlap, as aliases do).
bool inRanges(const std::vector<std::pair<uint64_t, uint64_t>>& ranges, const std::vector<uint64_t>& maxEnd,
              uint64_t v) {
    const auto it = std::upper_bound(ranges.begin(), ranges.end(), std::make_pair(v, UINT64_MAX));
    return it != ranges.begin() && v < maxEnd[static_cast<size_t>(it - ranges.begin()) - 1];
}

struct StreamContent {
    std::map<uint32_t, ModuleRecord> modules;
    std::vector<StackDefRecord> stacks;
    bool hasSymbols = false;
    uint64_t goodEnd = 0; // file offset just past the last complete record
    bool truncated = false;
};

bool readStream(const std::string& path, StreamContent* c, std::string* error) {
    WscapReader reader;
    if (!reader.open(path, error))
        return false;
    c->goodEnd = reader.offset();
    RawRecord raw;
    WscapReader::Status st;
    while ((st = reader.next(&raw)) == WscapReader::Status::Record) {
        c->goodEnd = reader.offset();
        if (ModuleRecord m; raw.decode(&m))
            c->modules[m.moduleId] = std::move(m);
        else if (StackDefRecord s; raw.decode(&s))
            c->stacks.push_back(std::move(s));
        else if (raw.is<SymbolRecord>())
            c->hasSymbols = true;
    }
    c->truncated = st == WscapReader::Status::Truncated;
    return true;
}

} // namespace

std::string findAddr2Line() {
    if (const char* env = std::getenv("WARPSCOPE_ADDR2LINE"); env && *env)
        return isExecutable(env) ? std::string(env) : std::string();
    const char* path = std::getenv("PATH");
    std::string dirs = path && *path ? path : "/usr/bin:/bin";
    size_t pos = 0;
    while (pos <= dirs.size()) {
        size_t colon = dirs.find(':', pos);
        if (colon == std::string::npos)
            colon = dirs.size();
        const std::string dir = dirs.substr(pos, colon - pos);
        pos = colon + 1;
        const std::string candidate = (dir.empty() ? "." : dir) + "/addr2line";
        if (isFile(candidate) && isExecutable(candidate))
            return candidate;
    }
    return {};
}

std::vector<std::vector<Frame>> parseAddr2Line(const std::string& output, size_t count) {
    std::vector<std::vector<Frame>> out;
    std::vector<std::string> lines;
    size_t pos = 0;
    while (pos < output.size()) {
        size_t nl = output.find('\n', pos);
        if (nl == std::string::npos)
            nl = output.size();
        std::string line = output.substr(pos, nl - pos);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(std::move(line));
        pos = nl + 1;
    }
    for (size_t i = 0; i < lines.size();) {
        if (!isAddressLine(lines[i])) {
            ++i; // stray output (a warning on stdout): ignore it
            continue;
        }
        ++i;
        std::vector<Frame> frames;
        while (i < lines.size() && !isAddressLine(lines[i])) {
            Frame f;
            f.function = lines[i] == "??" ? std::string() : lines[i];
            if (i + 1 < lines.size())
                parseLocation(lines[i + 1], &f);
            frames.push_back(std::move(f));
            i += 2;
        }
        out.push_back(std::move(frames));
    }
    out.resize(count); // missing answers stay empty; extra ones are dropped
    return out;
}

bool runAddr2Line(const std::string& tool, const std::string& module, const std::vector<uint64_t>& offsets,
                  std::vector<std::vector<Frame>>* frames, std::string* error) {
    frames->clear();
    for (size_t begin = 0; begin < offsets.size(); begin += kBatch) {
        const size_t end = std::min(offsets.size(), begin + kBatch);
        std::vector<std::string> args = {tool, "-a", "-f", "-C", "-i", "-e", module};
        char buf[24];
        for (size_t i = begin; i < end; ++i) {
            std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(offsets[i]));
            args.emplace_back(buf);
        }
        std::string out;
        if (!capture(args, &out, error))
            return false;
        std::vector<std::vector<Frame>> part = parseAddr2Line(out, end - begin);
        for (auto& f : part)
            frames->push_back(std::move(f));
    }
    return true;
}

bool symbolizeStream(const std::string& path, const std::string& tool, Result* result, std::string* error) {
    *result = Result{};
    StreamContent c;
    if (!readStream(path, &c, error))
        return false;
    result->stacks = c.stacks.size();
    if (c.stacks.empty())
        return true;
    if (c.hasSymbols) {
        result->alreadySymbolized = true;
        return true;
    }
    if (tool.empty()) {
        result->toolMissing = true;
        return true;
    }
    // Module of each address: the one whose range holds it (the latest defined wins an overlap).
    std::vector<const ModuleRecord*> byStart;
    for (const auto& [id, m] : c.modules)
        byStart.push_back(&m);
    std::stable_sort(byStart.begin(), byStart.end(),
                     [](const ModuleRecord* a, const ModuleRecord* b) { return a->start < b->start; });
    auto moduleOf = [&](uint64_t a) -> const ModuleRecord* {
        const ModuleRecord* found = nullptr;
        for (const ModuleRecord* m : byStart) {
            if (m->start > a)
                break;
            if (a < m->start + m->size && (!found || m->moduleId > found->moduleId))
                found = m;
        }
        return found;
    };
    std::map<uint32_t, std::set<uint64_t>> wanted; // module id -> offsets
    for (const StackDefRecord& s : c.stacks)
        for (uint64_t a : s.addresses)
            if (const ModuleRecord* m = moduleOf(a); m && !isLaunchPlumbingModule(m->path) && a > m->loadBias)
                wanted[m->moduleId].insert(a - m->loadBias);

    std::string records;
    for (const auto& [id, offsetSet] : wanted) {
        const ModuleRecord& m = c.modules[id];
        if (!isFile(m.path))
            continue; // the vDSO, or a file deleted since
        // Return addresses point after the call: look up the call instruction itself.
        std::vector<uint64_t> offsets(offsetSet.begin(), offsetSet.end());
        std::vector<uint64_t> lookups(offsets);
        for (uint64_t& o : lookups)
            o -= 1;
        std::vector<std::vector<Frame>> frames;
        std::string why;
        if (!runAddr2Line(tool, m.path, lookups, &frames, &why))
            continue; // one unreadable module does not spoil the others
        ++result->modules;
        bool fullSymbols = true;
        const auto exported = exportedFunctions(m.path, &fullSymbols);
        std::vector<uint64_t> maxEnd; // running maximum of the ends, for nested ranges
        for (const auto& [begin, end] : exported)
            maxEnd.push_back(std::max(end, maxEnd.empty() ? 0 : maxEnd.back()));
        if (!fullSymbols)
            for (size_t i = 0; i < offsets.size(); ++i)
                for (Frame& f : frames[i])
                    if (f.file.empty() && !inRanges(exported, maxEnd, lookups[i]))
                        f.function.clear(); // a guess from the nearest export: better none
        for (size_t i = 0; i < offsets.size(); ++i) {
            ++result->addresses;
            bool source = false;
            for (size_t depth = 0; depth < frames[i].size(); ++depth) {
                const Frame& f = frames[i][depth];
                SymbolRecord r;
                r.moduleId = id;
                r.offset = offsets[i];
                r.inlineDepth = static_cast<uint32_t>(depth);
                r.function = f.function;
                r.file = f.file;
                r.line = f.line;
                source = source || (!f.file.empty() && f.line > 0);
                appendRecord(records, r);
            }
            result->withSource += source ? 1 : 0;
        }
    }
    if (records.empty())
        return true;
    // Append after the last complete record (a torn or corrupt tail is unreadable anyway).
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        *error = "cannot open " + path + " for writing: " + std::strerror(errno);
        return false;
    }
    bool ok = ::ftruncate(fd, static_cast<off_t>(c.goodEnd)) == 0;
    ok = ok && ::lseek(fd, static_cast<off_t>(c.goodEnd), SEEK_SET) >= 0;
    for (size_t done = 0; ok && done < records.size();) {
        const ssize_t n = ::write(fd, records.data() + done, records.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        ok = n > 0;
        done += n > 0 ? static_cast<size_t>(n) : 0;
    }
    if (!ok)
        *error = "cannot append symbols to " + path + ": " + std::strerror(errno);
    ::close(fd);
    return ok;
}

} // namespace ws::stacksymbolizer
