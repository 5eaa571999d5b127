#include "library/open_trace.h"

#include "model/session.h"
#include "store/session_store.h"

namespace ws {

ImportResult openTraceFile(const std::string& path, const ImportControl& control) {
    ImportControl withStore = control;
    if (!withStore.readSession)
        withStore.readSession = [](const std::string& file, std::string* error) { return SessionStore::read(file, error); };
    return importTraceFile(path, withStore);
}

} // namespace ws
