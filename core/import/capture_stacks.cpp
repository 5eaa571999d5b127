#include "import/capture_stacks.h"

#include <algorithm>
#include <cstdio>

namespace ws {

using namespace wscap;

namespace {

std::string baseName(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// ';' separates frames in the `Call stack` text: keep it (and line breaks) out of names.
std::string clean(std::string s) {
    for (char& c : s)
        if (c == ';' || c == '\n' || c == '\r')
            c = ',';
    return s;
}

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The CUDA runtime's own functions (a statically linked cudart has no module of its own) and the
// launch wrappers nvcc generates for <<<...>>>: plumbing between the launch site and the driver.
bool isLaunchPlumbingFunction(const std::string& f) {
    return startsWith(f, "cuda") || startsWith(f, "__cuda") || startsWith(f, "__device_stub__");
}

// The Python interpreter's own code: libpython3.x.so, or a python executable with it built in.
bool isPythonInterpreter(const std::string& path) {
    const std::string base = baseName(path);
    return startsWith(base, "libpython") || startsWith(base, "python");
}

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

} // namespace

void CaptureStacks::addModule(ModuleRecord m) { m_modules[m.moduleId] = std::move(m); }

void CaptureStacks::addStack(StackDefRecord s) { m_addresses[s.stackId] = std::move(s.addresses); }

void CaptureStacks::addLaunch(const CallStackRecord& c) {
    m_launches[c.correlationId] = pairKey(c.stackId, c.pyStackId);
}

void CaptureStacks::addPyFrame(PyFrameRecord f) {
    const uint32_t id = f.frameId;
    m_pyFrames[id] = std::move(f);
}

void CaptureStacks::addPyStack(PyStackRecord s) { m_pyStacks[s.stackId] = std::move(s.frameIds); }

void CaptureStacks::addGraphNode(uint64_t nodeId, uint32_t stackId, uint32_t pyStackId) {
    if (stackId || pyStackId)
        m_graphNodes[nodeId] = pairKey(stackId, pyStackId);
}

void CaptureStacks::addSymbol(SymbolRecord s) {
    auto& list = m_symbols[{s.moduleId, s.offset}];
    list.push_back(std::move(s));
}

const ModuleRecord* CaptureStacks::moduleOf(uint64_t address) const {
    // Few modules (hundreds); a later definition of an overlapping range (a dlopen after a dlclose) wins.
    const ModuleRecord* found = nullptr;
    for (const ModuleRecord* m : m_byStart) {
        if (m->start > address)
            break;
        if (address - m->start < m->size && (!found || m->moduleId > found->moduleId))
            found = m;
    }
    return found;
}

std::string CaptureStacks::format(const std::vector<uint64_t>& addresses, bool stopAtPython) const {
    std::string out;
    auto add = [&out](const std::string& file, uint32_t line, const std::string& function) {
        if (!out.empty())
            out += ';';
        out += clean(file);
        out += '(';
        out += std::to_string(line);
        out += "): ";
        out += clean(function);
    };
    bool inner = true; // still at the inner end, where plumbing frames are dropped
    for (uint64_t a : addresses) {
        const ModuleRecord* m = moduleOf(a);
        if (!m) {
            inner = false;
            add("(unknown module)", 0, hex(a));
            continue;
        }
        if (inner && isLaunchPlumbingModule(m->path))
            continue;
        if (stopAtPython && isPythonInterpreter(m->path))
            break;
        const uint64_t offset = a - m->loadBias;
        const auto sym = m_symbols.find({m->moduleId, offset});
        std::vector<const SymbolRecord*> frames;
        if (sym != m_symbols.end()) {
            for (const SymbolRecord& s : sym->second)
                frames.push_back(&s);
            std::sort(frames.begin(), frames.end(),
                      [](const SymbolRecord* x, const SymbolRecord* y) { return x->inlineDepth < y->inlineDepth; });
        }
        if (inner && !frames.empty() && isLaunchPlumbingFunction(frames.back()->function))
            continue; // judged by the real (outermost) function the code belongs to
        inner = false;
        const std::string module = baseName(m->path);
        std::string moduleOffset = module;
        moduleOffset += '+';
        moduleOffset += hex(offset);
        if (frames.empty()) {
            add(module, 0, moduleOffset);
            continue;
        }
        for (const SymbolRecord* s : frames)
            add(s->file.empty() ? module : s->file, s->file.empty() ? 0 : s->line,
                s->function.empty() ? moduleOffset : s->function);
    }
    return out;
}

const std::vector<uint64_t>* CaptureStacks::pyStack(uint32_t pyStackId) const {
    const auto stack = m_pyStacks.find(pyStackId);
    return stack == m_pyStacks.end() ? nullptr : &stack->second;
}

std::string CaptureStacks::pyFrameText(uint32_t frameId) const {
    const auto f = m_pyFrames.find(frameId);
    if (f == m_pyFrames.end())
        return "(unknown Python frame)(0): ?";
    return clean(f->second.file) + "(" + std::to_string(f->second.line) + "): " + clean(f->second.function);
}

std::string CaptureStacks::formatPython(uint32_t pyStackId) const {
    std::string out;
    const std::vector<uint64_t>* stack = pyStack(pyStackId);
    if (!stack)
        return out;
    for (uint64_t frameId : *stack) {
        if (!out.empty())
            out += ';';
        out += pyFrameText(static_cast<uint32_t>(frameId));
    }
    return out;
}

void CaptureStacks::finish() {
    m_byStart.clear();
    for (const auto& [id, m] : m_modules)
        m_byStart.push_back(&m);
    std::stable_sort(m_byStart.begin(), m_byStart.end(),
                     [](const ModuleRecord* a, const ModuleRecord* b) { return a->start < b->start; });
    m_text.clear();
    for (const auto& [correlation, key] : m_launches)
        formatPair(key);
    for (const auto& [node, key] : m_graphNodes)
        formatPair(key);
}

void CaptureStacks::formatPair(uint64_t key) {
    if (m_text.count(key))
        return;
    const auto native = static_cast<uint32_t>(key >> 32);
    const auto python = static_cast<uint32_t>(key);
    const auto addresses = m_addresses.find(native);
    std::string text = addresses == m_addresses.end() ? std::string() : format(addresses->second, python != 0);
    const std::string py = python ? formatPython(python) : std::string();
    if (!text.empty() && !py.empty())
        text += ';';
    text += py;
    m_text.emplace(key, std::move(text));
}

const std::string* CaptureStacks::textOf(uint64_t key) const {
    const auto text = m_text.find(key);
    return text == m_text.end() || text->second.empty() ? nullptr : &text->second;
}

const std::string* CaptureStacks::forGraphNode(uint64_t nodeId) const {
    const auto node = m_graphNodes.find(nodeId);
    return node == m_graphNodes.end() ? nullptr : textOf(node->second);
}

const std::string* CaptureStacks::forCorrelation(uint32_t correlationId) const {
    const auto launch = m_launches.find(correlationId);
    return launch == m_launches.end() ? nullptr : textOf(launch->second);
}

void CaptureStacks::setOperatorStack(uint64_t rangeOffset, uint32_t launchCorrelation) {
    if (const auto launch = m_launches.find(launchCorrelation); launch != m_launches.end())
        m_operators[rangeOffset] = launch->second;
}

const std::string* CaptureStacks::forOperator(uint64_t rangeOffset) const {
    const auto op = m_operators.find(rangeOffset);
    return op == m_operators.end() ? nullptr : textOf(op->second);
}

} // namespace ws
