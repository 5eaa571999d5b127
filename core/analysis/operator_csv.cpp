#include "analysis/operator_csv.h"

#include "analysis/kernel_csv.h"
#include "model/session.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace ws {

namespace {

std::vector<OperatorColumn> columnsOf(OperatorGrouping grouping) {
    std::vector<OperatorColumn> out;
    for (size_t c = 0; c < kOperatorColumnCount; ++c)
        if (operatorColumnInGrouping(static_cast<OperatorColumn>(c), grouping))
            out.push_back(static_cast<OperatorColumn>(c));
    return out;
}

bool isDuration(OperatorColumn c) {
    return c == OperatorColumn::HostTotal || c == OperatorColumn::HostSelf || c == OperatorColumn::DeviceTotal ||
           c == OperatorColumn::DeviceSelf;
}

bool isText(OperatorColumn c) {
    return c == OperatorColumn::Name || c == OperatorColumn::InputShapes || c == OperatorColumn::InputTypes ||
           c == OperatorColumn::CallStack;
}

const char* textHeader(OperatorColumn c) {
    switch (c) {
    case OperatorColumn::Name: return "Operator";
    case OperatorColumn::InputShapes: return "Input shapes";
    case OperatorColumn::InputTypes: return "Input types";
    case OperatorColumn::CallStack: return "Call stack";
    case OperatorColumn::Calls: return "Calls";
    case OperatorColumn::HostTotal: return "Host total us";
    case OperatorColumn::HostSelf: return "Host self us";
    case OperatorColumn::DeviceTotal: return "Device total us";
    case OperatorColumn::DeviceSelf: return "Device self us";
    case OperatorColumn::TensorCoreEligible: return "TC eligible";
    case OperatorColumn::TcSelfPercent: return "TC self %";
    case OperatorColumn::TcTotalPercent: return "TC total %";
    }
    return "";
}

size_t displayWidth(const std::string& s) {
    size_t w = 0;
    for (unsigned char c : s)
        w += (c & 0xc0) != 0x80;
    return w;
}

// Cuts UTF-8 text to at most `width` code points, marking the cut with "...".
std::string clip(const std::string& s, size_t width) {
    if (width < 4 || displayWidth(s) <= width)
        return s;
    size_t points = 0;
    for (size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xc0) != 0x80 && points++ == width - 3)
            return s.substr(0, i) + "...";
    return s;
}

} // namespace

void writeOperatorCsv(std::ostream& out, const Session& session, const OperatorTree& tree,
                      const OperatorTable& table, const std::vector<uint32_t>& order) {
    const std::vector<OperatorColumn> columns = columnsOf(table.grouping());
    for (size_t c = 0; c < columns.size(); ++c)
        out << (c ? "," : "") << operatorColumnName(columns[c]);
    out << '\n';
    std::string line;
    for (uint32_t r : order) {
        line.clear();
        for (size_t c = 0; c < columns.size(); ++c) {
            if (c)
                line += ',';
            line += csvField(table.text(session, tree, r, columns[c]));
        }
        line += '\n';
        out << line;
    }
}

void writeOperatorText(std::ostream& out, const Session& session, const OperatorTree& tree,
                       const OperatorTable& table, const std::vector<uint32_t>& order, size_t maxTextWidth) {
    std::vector<OperatorColumn> columns;
    for (OperatorColumn c : columnsOf(table.grouping())) {
        const bool deviceColumn = c == OperatorColumn::DeviceTotal || c == OperatorColumn::DeviceSelf ||
                                  c == OperatorColumn::TcSelfPercent || c == OperatorColumn::TcTotalPercent;
        if (deviceColumn && !table.hasDevice())
            continue;
        columns.push_back(c);
    }
    std::vector<std::vector<std::string>> cells;
    cells.reserve(order.size() + 1);
    cells.emplace_back();
    for (OperatorColumn c : columns)
        cells.back().push_back(textHeader(c));
    for (uint32_t r : order) {
        std::vector<std::string> line;
        for (OperatorColumn c : columns) {
            std::string v = table.text(session, tree, r, c);
            if (isDuration(c) && !v.empty()) {
                char buf[48];
                std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(std::stoll(v)) / 1000.0);
                v = buf;
            } else if (isText(c)) {
                v = clip(v, maxTextWidth);
            }
            line.push_back(std::move(v));
        }
        cells.push_back(std::move(line));
    }
    std::vector<size_t> width(columns.size(), 0);
    for (const auto& line : cells)
        for (size_t c = 0; c < line.size(); ++c)
            width[c] = std::max(width[c], displayWidth(line[c]));
    for (const auto& line : cells) {
        std::string text;
        for (size_t c = 0; c < line.size(); ++c) {
            const size_t pad = width[c] - displayWidth(line[c]);
            if (c)
                text += "  ";
            if (isText(columns[c])) {
                text += line[c];
                if (c + 1 < line.size())
                    text.append(pad, ' ');
            } else {
                text.append(pad, ' ');
                text += line[c];
            }
        }
        out << text << '\n';
    }
    out << order.size() << " rows, " << table.totalCalls() << " calls";
    if (table.range())
        out << " starting in [" << table.range()->from << ", " << table.range()->to << ") ns";
    out << '\n';
    if (!table.hasDevice())
        out << "device time: not in this trace (no kernels, memcpy or memset)\n";
    if (table.grouping() == OperatorGrouping::NameAndInputShape && !tree.anyShapes())
        out << "input shapes: not in this trace (recorded without record_shapes)\n";
    if (table.grouping() == OperatorGrouping::NameAndCallStack && !tree.anyCallStack())
        out << "call stacks: not in this trace (recorded without with_stack)\n";
}

} // namespace ws
