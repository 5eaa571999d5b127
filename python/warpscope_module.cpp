// _warpscope: the native half of the `warpscope` Python package (python/warpscope/__init__.py
// turns what it returns into pandas DataFrames). It opens sessions as warpscope-cli does and hands
// out the engine's rows and the CLI's own reports, so a DataFrame and `warpscope-cli ... --csv`
// come from the same code.
#include "analysis/kernel_table.h"
#include "analysis/overview_document.h"
#include "analysis/session_reports.h"
#include "analysis/trace_summary.h"
#include "library/library_query.h"
#include "library/open_trace.h"
#include "library/session_library.h"
#include "model/session.h"
#include "query/query_engine.h"
#include "query/query_schema.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <sstream>
#include <stdexcept>

namespace py = pybind11;

namespace {

py::object toPython(const ws::QueryValue& v) {
    switch (v.type) {
    case ws::QueryValue::Type::Null: return py::none();
    case ws::QueryValue::Type::Integer: return py::int_(v.integer);
    case ws::QueryValue::Type::Real: return py::float_(v.real);
    case ws::QueryValue::Type::Text: return py::str(v.text);
    }
    return py::none();
}

// Columns first (what a DataFrame is built from): {"columns": [...], "data": [[column 0...], ...]}.
py::dict columnsOf(const std::vector<std::string>& names, const std::vector<std::vector<ws::QueryValue>>& rows,
                   size_t prefixColumns = 0, const std::vector<std::string>* prefix = nullptr) {
    py::list data;
    for (size_t c = 0; c < names.size(); ++c) {
        py::list column;
        for (size_t r = 0; r < rows.size(); ++r)
            column.append(c < prefixColumns ? py::object(py::str((*prefix)[r])) : toPython(rows[r][c - prefixColumns]));
        data.append(column);
    }
    py::dict out;
    out["columns"] = names;
    out["data"] = data;
    return out;
}

class NativeSession {
public:
    explicit NativeSession(const std::string& path) : m_path(path) {
        ws::ImportResult r;
        {
            py::gil_scoped_release unlocked; // an import may take seconds: other Python threads run
            r = ws::openTraceFile(path);
        }
        if (!r.session)
            throw std::runtime_error(path + ": " + r.error);
        m_session = r.session;
        m_engine = std::make_unique<ws::QueryEngine>(m_session);
    }

    py::dict query(const std::string& sql, py::object maxRows) {
        ws::QueryOptions options;
        if (!maxRows.is_none())
            options.maxRows = maxRows.cast<size_t>();
        ws::QueryResult r;
        {
            py::gil_scoped_release unlocked;
            r = m_engine->run(sql, options);
        }
        if (!r.ok())
            throw py::value_error(r.cancelled ? std::string("query cancelled") : r.error);
        py::dict out = columnsOf(r.columns, r.rows);
        out["truncated"] = r.truncated;
        return out;
    }

    std::string kernelsCsv() {
        py::gil_scoped_release unlocked;
        std::ostringstream out;
        ws::writeKernelsReport(out, *m_session, ws::KernelTableOptions{});
        return out.str();
    }
    std::string operatorsCsv(const std::string& group) {
        const ws::OperatorGrouping g = group == "name"    ? ws::OperatorGrouping::Name
                                       : group == "shape" ? ws::OperatorGrouping::NameAndInputShape
                                       : group == "stack" ? ws::OperatorGrouping::NameAndCallStack
                                                          : throw py::value_error("group is name, shape or stack");
        py::gil_scoped_release unlocked;
        std::ostringstream out;
        ws::writeOperatorsReport(out, *m_session, g);
        return out.str();
    }
    std::string gapsCsv() {
        py::gil_scoped_release unlocked;
        std::ostringstream out;
        ws::writeGapsReport(out, *m_session);
        return out.str();
    }
    std::string overviewJson() {
        py::gil_scoped_release unlocked;
        return ws::overviewDocumentJson(*m_session, ws::buildOverviewDocument(*m_session));
    }
    std::string summaryJson() {
        py::gil_scoped_release unlocked;
        return ws::summaryToJson(ws::summarizeSession(*m_session));
    }
    std::string format() const { return ws::formatName(m_session->sourceFormat()); }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    std::shared_ptr<const ws::Session> m_session;
    std::unique_ptr<ws::QueryEngine> m_engine;
};

py::dict libraryQuery(const std::string& directory, const std::string& sql, unsigned threads) {
    ws::LibraryQueryOptions options;
    options.threads = threads;
    ws::LibraryQueryResult r;
    {
        py::gil_scoped_release unlocked;
        r = ws::queryLibrary(directory.empty() ? ws::defaultSessionLibraryDirectory() : directory, sql, options);
    }
    if (!r.error.empty())
        throw py::value_error(r.error);
    std::vector<std::string> names{"session"};
    std::vector<std::vector<ws::QueryValue>> rows;
    std::vector<std::string> sessions;
    py::list failures;
    bool headed = false;
    for (const ws::LibrarySessionResult& s : r.sessions) {
        if (!s.result.ok()) {
            failures.append(py::make_tuple(s.path, s.result.cancelled ? "cancelled" : s.result.error));
            continue;
        }
        if (!headed) {
            names.insert(names.end(), s.result.columns.begin(), s.result.columns.end());
            headed = true;
        }
        for (const auto& row : s.result.rows) {
            rows.push_back(row);
            sessions.push_back(s.name);
        }
    }
    py::dict out = columnsOf(names, rows, 1, &sessions);
    out["failures"] = failures;
    return out;
}

py::list librarySessions(const std::string& directory) {
    py::list out;
    for (const ws::SessionLibrary::Entry& e : ws::SessionLibrary(directory.empty() ? ws::defaultSessionLibraryDirectory() : directory).list()) {
        py::dict d;
        d["name"] = e.name;
        d["path"] = e.path;
        d["source"] = e.sourcePath;
        d["format"] = e.format;
        d["gpus"] = e.gpus;
        d["duration_ns"] = e.durationNs;
        d["events"] = e.events;
        out.append(d);
    }
    return out;
}

py::list schema() {
    py::list out;
    for (const ws::QuerySchemaTable& t : ws::querySchema()) {
        py::list columns;
        for (const ws::QuerySchemaColumn& c : t.columns)
            columns.append(py::make_tuple(c.name, c.type, c.doc));
        py::dict d;
        d["name"] = t.name;
        d["doc"] = t.doc;
        d["view"] = t.view;
        d["columns"] = columns;
        out.append(d);
    }
    return out;
}

} // namespace

PYBIND11_MODULE(_warpscope, m) {
    m.doc() = "Warpscope's native module; use the `warpscope` package.";
    py::class_<NativeSession>(m, "NativeSession")
        .def(py::init<const std::string&>())
        .def("query", &NativeSession::query, py::arg("sql"), py::arg("max_rows") = py::none())
        .def("kernels_csv", &NativeSession::kernelsCsv)
        .def("operators_csv", &NativeSession::operatorsCsv, py::arg("group") = "name")
        .def("gaps_csv", &NativeSession::gapsCsv)
        .def("overview_json", &NativeSession::overviewJson)
        .def("summary_json", &NativeSession::summaryJson)
        .def_property_readonly("format", &NativeSession::format)
        .def_property_readonly("path", &NativeSession::path);
    m.def("library_query", &libraryQuery, py::arg("directory"), py::arg("sql"), py::arg("threads") = 0);
    m.def("library_sessions", &librarySessions, py::arg("directory"));
    m.def("default_library_directory", &ws::defaultSessionLibraryDirectory);
    m.def("schema", &schema);
}
