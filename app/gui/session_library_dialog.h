#pragma once

#include <QDialog>

class QLabel;
class QPushButton;
class QTableWidget;

namespace ws {

/*
 * File > Session Library: every stored session of the library folder with its name, source, date,
 * GPUs, duration and size. Open, Rename, Delete, Export (copy the file elsewhere) and Import (copy a
 * session file in); Change Folder picks another library directory (kept in the settings).
 */
class SessionLibraryDialog : public QDialog {
    Q_OBJECT
public:
    explicit SessionLibraryDialog(QWidget* parent = nullptr);

    static QString libraryDirectory(); // from the settings, the XDG data location by default
    static void setLibraryDirectory(const QString& dir);
    int rowCount() const;

signals:
    void openRequested(const QString& sessionPath);

private:
    void reload();
    QString selectedPath() const;
    void openSelected();
    void renameSelected();
    void deleteSelected();
    void exportSelected();
    void importFile();
    void changeFolder();

    QLabel* m_folder;
    QTableWidget* m_table;
    QPushButton* m_open;
};

} // namespace ws
