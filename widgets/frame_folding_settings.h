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

    // The patterns in effect when enabled (the defaults when none are set).
    FrameFolding patternsInEffect() const;

    static FrameFoldingSettings load();
    void save() const;
    // What a view's switch folds: the saved patterns when on, nothing when off.
    static FrameFolding foldingWhen(bool enabled);
    // Saves a view's switch (the Flame Graph's and the Stack tab's are this one setting).
    static void saveEnabled(bool enabled);
};

} // namespace ws
