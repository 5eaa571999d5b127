#include "frame_folding_settings.h"

#include <QSettings>

namespace ws {

namespace {

const char* const kEnabledKey = "frames/fold";
const char* const kPatternsKey = "frames/foldPatterns";

} // namespace

FrameFolding FrameFoldingSettings::patternsInEffect() const {
    const FrameFolding custom = FrameFolding::parse(patterns.toStdString());
    return custom.empty() ? FrameFolding::defaults() : custom;
}

FrameFolding FrameFoldingSettings::foldingWhen(bool enabled) {
    return enabled ? load().patternsInEffect() : FrameFolding::none();
}

void FrameFoldingSettings::saveEnabled(bool enabled) {
    FrameFoldingSettings s = load();
    s.enabled = enabled;
    s.save();
}

FrameFoldingSettings FrameFoldingSettings::load() {
    QSettings q;
    FrameFoldingSettings s;
    s.enabled = q.value(QLatin1String(kEnabledKey), s.enabled).toBool();
    s.patterns = q.value(QLatin1String(kPatternsKey)).toString();
    return s;
}

void FrameFoldingSettings::save() const {
    QSettings q;
    q.setValue(QLatin1String(kEnabledKey), enabled);
    q.setValue(QLatin1String(kPatternsKey), patterns);
}

} // namespace ws
