#include "import/job_files.h"

#include "analysis/distributed.h"
#include "import/trace_import.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace ws {

namespace fs = std::filesystem;

std::vector<std::string> expandJobInputs(const std::vector<std::string>& paths, std::string* error) {
    std::vector<std::string> files;
    for (const std::string& p : paths) {
        std::error_code ec;
        if (!fs::is_directory(p, ec)) {
            files.push_back(p);
            continue;
        }
        std::vector<std::string> inside;
        for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code fec;
            if (!it->is_regular_file(fec))
                continue;
            const TraceFormat f = detectFormat(it->path().string());
            if (f != TraceFormat::Unknown && f != TraceFormat::NsightReport)
                inside.push_back(it->path().string());
        }
        if (inside.empty() && error)
            *error = p + ": no trace files in this directory";
        files.insert(files.end(), inside.begin(), inside.end());
    }
    std::set<std::string> seen;
    files.erase(std::remove_if(files.begin(), files.end(), [&](const std::string& f) { return !seen.insert(f).second; }),
                files.end());
    std::stable_sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
        const int ra = rankFromFileName(a), rb = rankFromFileName(b);
        if (ra != rb)
            return (ra < 0) != (rb < 0) ? ra >= 0 : ra < rb;
        return a < b;
    });
    if (files.empty() && error && error->empty())
        *error = "no trace files given";
    return files;
}

} // namespace ws
