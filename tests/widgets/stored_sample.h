#pragma once

#include "model/session.h"
#include "store/session_store.h"

#include <QTemporaryDir>

#include <memory>
#include <string>

namespace ws::test {

// The session stored into dir and read back, as the library reopens it (with its stored results);
// null with *error when either step fails.
inline std::shared_ptr<const Session> storedAndReadBack(const Session& session, const QTemporaryDir& dir,
                                                        std::string* error) {
    const std::string file = dir.filePath(QStringLiteral("stored.warpscope")).toStdString();
    if (!SessionStore::write(session, file, {}, error))
        return nullptr;
    return SessionStore::read(file, error);
}

} // namespace ws::test
