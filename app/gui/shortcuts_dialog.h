#pragma once

#include <QDialog>

class QAction;
class QTableWidget;

namespace ws {

/* Help > Keyboard Shortcuts: every action of the main window that has a shortcut, read from the
 * actions themselves so the list cannot drift from what the keys really do. */
class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    ShortcutsDialog(const QList<QAction*>& actions, QWidget* parent = nullptr);
    int rowCount() const;

private:
    QTableWidget* m_table;
};

} // namespace ws
