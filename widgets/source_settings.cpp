#include "source_settings.h"

#include "source/editor_command.h"

#include <QCoreApplication>
#include <QProcess>
#include <QSettings>
#include <QStringList>

namespace ws {

QString SourceSettings::commandTemplate() const {
    if (editorId == QLatin1String("custom")) return customTemplate;
    const EditorPreset* p = findEditorPreset(editorId.toStdString());
    return QString::fromUtf8(p ? p->commandTemplate : editorPresets().front().commandTemplate);
}

SourceSettings SourceSettings::load() {
    QSettings q;
    SourceSettings s;
    s.editorId = q.value(QStringLiteral("source/editor"), s.editorId).toString();
    s.customTemplate = q.value(QStringLiteral("source/customTemplate")).toString();
    const int n = q.beginReadArray(QStringLiteral("source/pathRules"));
    for (int i = 0; i < n; ++i) {
        q.setArrayIndex(i);
        PathMappingRule r;
        r.from = q.value(QStringLiteral("from")).toString().toStdString();
        r.to = q.value(QStringLiteral("to")).toString().toStdString();
        if (!r.from.empty() && !r.to.empty()) s.pathRules.push_back(std::move(r));
    }
    q.endArray();
    return s;
}

void SourceSettings::save() const {
    QSettings q;
    q.setValue(QStringLiteral("source/editor"), editorId);
    q.setValue(QStringLiteral("source/customTemplate"), customTemplate);
    q.remove(QStringLiteral("source/pathRules"));
    q.beginWriteArray(QStringLiteral("source/pathRules"), static_cast<int>(pathRules.size()));
    for (size_t i = 0; i < pathRules.size(); ++i) {
        q.setArrayIndex(static_cast<int>(i));
        q.setValue(QStringLiteral("from"), QString::fromStdString(pathRules[i].from));
        q.setValue(QStringLiteral("to"), QString::fromStdString(pathRules[i].to));
    }
    q.endArray();
}

void SourceSettings::addPathRule(const PathMappingRule& rule) {
    SourceSettings s = load();
    for (const PathMappingRule& r : s.pathRules)
        if (r.from == rule.from && r.to == rule.to) return;
    s.pathRules.push_back(rule);
    s.save();
}

bool openInEditor(const SourceSettings& settings, const QString& file, int line, int column, QString* error) {
    std::string why;
    const auto args = expandEditorCommand(settings.commandTemplate().toStdString(),
                                          SourceLocation{file.toStdString(), line, column}, &why);
    if (!args) {
        if (error)
            *error = QCoreApplication::translate("ws::SourceSettings", "Bad editor command: %1")
                         .arg(QString::fromStdString(why));
        return false;
    }
    QStringList rest;
    for (size_t i = 1; i < args->size(); ++i)
        rest << QString::fromStdString((*args)[i]);
    const QString program = QString::fromStdString(args->front());
    if (!QProcess::startDetached(program, rest)) {
        if (error)
            *error = QCoreApplication::translate("ws::SourceSettings", "Could not start %1.").arg(program);
        return false;
    }
    return true;
}

} // namespace ws
