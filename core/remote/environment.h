#pragma once

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>

namespace ws {

// An environment variable's value, "" when unset.
inline std::string environmentValue(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

// A field of an Azure connection string (`Name=value;Name=value`), "" when absent.
inline std::string connectionStringField(std::string_view connection, std::string_view name) {
    for (size_t pos = 0; pos < connection.size();) {
        const size_t end = std::min(connection.find(';', pos), connection.size());
        const std::string_view pair = connection.substr(pos, end - pos);
        if (pair.size() > name.size() && pair.substr(0, name.size()) == name && pair[name.size()] == '=')
            return std::string(pair.substr(name.size() + 1));
        pos = end + 1;
    }
    return {};
}

} // namespace ws
