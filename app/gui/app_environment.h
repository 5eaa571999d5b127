#pragma once

#include <QIcon>
#include <QString>

class QCoreApplication;

namespace ws {

/*
 * Where the app finds and keeps things, following the XDG base directories through QStandardPaths:
 * settings in $XDG_CONFIG_HOME/Warpscope, the session library in $XDG_DATA_HOME/Warpscope/sessions,
 * and the bundled sample next to the installed binary (share/warpscope/samples) or in the source tree
 * for a build that was not installed.
 */
namespace AppEnvironment {

void setApplicationIdentity(); // organization/application names used by QSettings and QStandardPaths
QIcon applicationIcon();         // every bundled size of the Warpscope icon
QString sessionLibraryDir();
// A settings file Qt cannot read (QSettings::status() not NoError: malformed, or unreadable) is
// renamed to FILE.unreadable-YYYYMMDD-HHMMSS so the app starts with defaults and the next save does
// not overwrite what the user may want back; returns the new name, or an empty string.
QString moveAsideUnreadableSettings();
QString sampleTracePath(); // empty when no sample can be found
// Installs Qt's and Warpscope's translators for `localeName` (e.g. "zh_CN"); returns whether a
// Warpscope translation was found. The app calls it with QLocale().name().
bool installTranslators(QCoreApplication& app, const QString& localeName);

} // namespace AppEnvironment

} // namespace ws
