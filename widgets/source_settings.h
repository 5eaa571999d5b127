#pragma once

#include "source/path_mapping.h"

#include <QString>
#include <vector>

namespace ws {

/*
 * SourceSettings: how source files are found and opened: the editor (a preset id from core's
 * editorPresets(), or "custom" with `customTemplate`) and the ordered path substitution rules.
 * Stored with QSettings under "source/"; core gets the plain values.
 */
struct SourceSettings {
    QString editorId = QStringLiteral("system");
    QString customTemplate;
    std::vector<PathMappingRule> pathRules;

    // The command template in effect (the preset's, or the custom one).
    QString commandTemplate() const;

    static SourceSettings load();
    void save() const;
    // Appends `rule` unless an identical one exists, and saves.
    static void addPathRule(const PathMappingRule& rule);
};

// Opens `file` at `line`/`column` with the configured editor: the template is expanded into an
// argument vector and started with QProcess::startDetached, never through a shell. Returns false
// with a message in *error when the template is bad or the program could not be started.
bool openInEditor(const SourceSettings& settings, const QString& file, int line, int column, QString* error);

} // namespace ws
