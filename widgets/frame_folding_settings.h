#pragma once

#include "analysis/frame_folding.h"

#include <QString>

namespace ws {

/*
 * FrameFoldingSettings: whether the Flame Graph and the Stack tab fold dispatch and decorator frames
 * (core's FrameFolding, issue #51), and which. Stored with QSettings under "frames/"; empty patterns
 * mean core's defaults, so an upgrade that extends them reaches users who never edited the list.
 */
struct FrameFoldingSettings {
    bool enabled = true;
    QString patterns; // comma-separated (FrameFolding::parse); empty: FrameFolding::defaults()

    // What to fold: nothing when disabled.
    FrameFolding folding() const;
    // The patterns in effect when enabled (the defaults when none are set).
    FrameFolding patternsInEffect() const;

    static FrameFoldingSettings load();
    void save() const;
};

} // namespace ws
