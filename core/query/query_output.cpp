#include "query/query_output.h"

#include "analysis/kernel_csv.h"
#include "model/json_object_writer.h"

#include <algorithm>
#include <charconv>
#include <istream>

namespace ws {

namespace {

constexpr size_t kTextRows = 10000; // a terminal table beyond that is not read; CSV is for that
constexpr size_t kTextWidth = 60;   // a cell's text is cut there in the text table

} // namespace

void appendQueryJsonValue(std::string& out, const QueryValue& v) {
    switch (v.type) {
    case QueryValue::Type::Null: out += "null"; break;
    case QueryValue::Type::Integer: out += std::to_string(v.integer); break;
    case QueryValue::Type::Real: JsonObjectWriter::appendDouble(out, v.real); break;
    case QueryValue::Type::Text: JsonObjectWriter::appendString(out, v.text); break;
    }
}

void QueryResultWriter::columns(const std::vector<std::string>& names) {
    m_names = names;
    if (m_format == QueryOutputFormat::Csv) {
        std::string line;
        for (size_t i = 0; i < names.size(); ++i) {
            if (i)
                line += ',';
            line += csvField(names[i]); // appended apart: GCC 12 warns falsely (-Wrestrict) on "," + temporaries
        }
        m_out << line << '\n';
    } else if (m_format == QueryOutputFormat::Json) {
        std::string s = "{\"columns\":[";
        for (size_t i = 0; i < names.size(); ++i) {
            if (i)
                s += ',';
            JsonObjectWriter::appendString(s, names[i]);
        }
        m_out << s << "],\"rows\":[";
    }
}

void QueryResultWriter::row(const std::vector<QueryValue>& values) {
    std::string line;
    switch (m_format) {
    case QueryOutputFormat::Csv:
        for (size_t i = 0; i < values.size(); ++i) {
            if (i)
                line += ',';
            line += csvField(values[i].toText());
        }
        m_out << line << '\n';
        break;
    case QueryOutputFormat::Json:
        line = m_rows ? ",\n[" : "\n[";
        for (size_t i = 0; i < values.size(); ++i) {
            if (i)
                line += ',';
            appendQueryJsonValue(line, values[i]);
        }
        m_out << line << ']';
        break;
    case QueryOutputFormat::Text:
        if (m_text.size() >= kTextRows) {
            ++m_textDropped;
            break;
        }
        m_text.emplace_back();
        for (const QueryValue& v : values) {
            std::string t = v.type == QueryValue::Type::Null ? "NULL" : v.toText();
            std::replace(t.begin(), t.end(), '\n', ' ');
            if (t.size() > kTextWidth) {
                t.resize(kTextWidth - 3);
                t += "...";
            }
            m_text.back().push_back(std::move(t));
        }
        break;
    }
    ++m_rows;
}

void QueryResultWriter::finish(bool truncated) {
    if (m_format == QueryOutputFormat::Json) {
        m_out << "\n],\"row_count\":" << m_rows << ",\"truncated\":" << (truncated ? "true" : "false") << "}\n";
        return;
    }
    if (m_format != QueryOutputFormat::Text)
        return;
    std::vector<size_t> width(m_names.size());
    for (size_t c = 0; c < m_names.size(); ++c)
        width[c] = std::min(m_names[c].size(), kTextWidth);
    for (const auto& r : m_text)
        for (size_t c = 0; c < r.size() && c < width.size(); ++c)
            width[c] = std::max(width[c], r[c].size());
    auto line = [&](const std::vector<std::string>& cells) {
        std::string s;
        for (size_t c = 0; c < cells.size() && c < width.size(); ++c) {
            if (c)
                s += "  ";
            s += cells[c];
            if (c + 1 < cells.size())
                s.append(width[c] - std::min(width[c], cells[c].size()), ' ');
        }
        m_out << s << '\n';
    };
    line(m_names);
    std::vector<std::string> rule;
    for (size_t w : width)
        rule.emplace_back(w, '-');
    line(rule);
    for (const auto& r : m_text)
        line(r);
    m_out << "(" << m_rows << (m_rows == 1 ? " row" : " rows");
    if (m_textDropped)
        m_out << "; the first " << m_text.size() << " shown, --csv writes all";
    if (truncated)
        m_out << "; more were left out";
    m_out << ")\n";
}

QueryValue queryValueFromText(const std::string& text) {
    QueryValue v;
    if (text.empty())
        return v;
    const char* b = text.data();
    const char* e = b + text.size();
    int64_t i = 0;
    if (auto r = std::from_chars(b, e, i); r.ec == std::errc() && r.ptr == e) {
        v.type = QueryValue::Type::Integer;
        v.integer = i;
        return v;
    }
    double d = 0;
    if (auto r = std::from_chars(b, e, d); r.ec == std::errc() && r.ptr == e) {
        v.type = QueryValue::Type::Real;
        v.real = d;
        return v;
    }
    v.type = QueryValue::Type::Text;
    v.text = text;
    return v;
}

bool readCsvRecord(std::istream& in, std::vector<std::string>& fields) {
    fields.clear();
    if (in.peek() == std::char_traits<char>::eof())
        return false;
    std::string field;
    bool quoted = false, any = false;
    for (int ch; (ch = in.get()) != std::char_traits<char>::eof();) {
        any = true;
        const char c = char(ch);
        if (quoted) {
            if (c == '"') {
                if (in.peek() == '"') {
                    field += '"';
                    in.get();
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.push_back(std::move(field));
            field.clear();
        } else if (c == '\n') {
            break;
        } else if (c != '\r') {
            field += c;
        }
    }
    if (any)
        fields.push_back(std::move(field));
    return any;
}

} // namespace ws
