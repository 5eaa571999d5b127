#pragma once

#include "import/trace_import.h"

#include <string>

namespace ws {

/*
 * openTraceFile: importTraceFile for any input a user names, Warpscope session files included.
 * The importers do not know the session store (it sits beside them, not below), so this layer,
 * which knows both, hands the store's reader to the import (ImportControl::readSession): a
 * session given as a path or a URL is read by the store, everything else by its importer.
 */
ImportResult openTraceFile(const std::string& path, const ImportControl& control = {});

} // namespace ws
