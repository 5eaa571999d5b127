#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace ws {

struct SourceSettings;

/*
 * SettingsDialog: the source settings (SourceSettings): the editor (a preset or a custom command
 * template with %f, %l, %c) with a live preview of the argument vector, and the ordered path
 * substitution rules as an editable table; and the nsys that converts Nsight Systems reports
 * (empty: found on PATH or under /opt/nvidia), with what would run; and the folding of dispatch and
 * decorator frames in the Flame Graph and the Stack tab (FrameFoldingSettings: on/off and the
 * patterns, empty for the defaults). Saved with QSettings on OK.
 */
class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SettingsDialog(QWidget* parent = nullptr);

    // The settings as currently edited (not yet saved).
    SourceSettings edited() const;
    QComboBox* editorCombo() const { return m_editor; }
    QLineEdit* templateEdit() const { return m_template; }
    QTableWidget* rulesTable() const { return m_rules; }
    QLabel* preview() const { return m_preview; }
    QLineEdit* nsysEdit() const { return m_nsys; }
    QLabel* nsysStatus() const { return m_nsysStatus; }
    QCheckBox* foldCheck() const { return m_fold; }
    QLineEdit* foldPatternsEdit() const { return m_foldPatterns; }
    // The nsys chosen in Settings ("" = look for one), as saved.
    static QString nsysPath();

    void accept() override;

private:
    QComboBox* m_editor;
    QLineEdit* m_template;
    QLabel* m_preview;
    QTableWidget* m_rules;
    QLineEdit* m_nsys;
    QLabel* m_nsysStatus;
    QCheckBox* m_fold;
    QLineEdit* m_foldPatterns;

    void editorChanged();
    void updatePreview();
    void updateNsysStatus();
    void addRule(const QString& from, const QString& to);
    void moveRule(int delta);
};

} // namespace ws
