#include "model/arg_columns.h"

#include "model/json_string_scan.h"

namespace ws {

void compactJson(std::string_view raw, std::string& out) {
    out.clear();
    JsonStringScan scan;
    for (const char c : raw) {
        if (scan.outside(c) && (c == ' ' || c == '\n' || c == '\t' || c == '\r'))
            continue;
        out.push_back(c);
    }
}

std::string_view argColumnValue(std::string_view field, std::string& buf) {
    if (field.empty())
        return {};
    if (field[0] == 's')
        return field.substr(1);
    compactJson(field.substr(1), buf);
    return buf;
}

} // namespace ws
