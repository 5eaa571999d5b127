#include "session_library_dialog.h"

#include "app_environment.h"
#include "format.h"
#include "library/session_library.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ws {

namespace {
const char kDirectoryKey[] = "library/directory";
enum Column { Name, Source, Created, Gpus, Duration, Size, ColumnCount };
} // namespace

QString SessionLibraryDialog::libraryDirectory() {
    return QSettings().value(QLatin1String(kDirectoryKey), AppEnvironment::sessionLibraryDir()).toString();
}

void SessionLibraryDialog::setLibraryDirectory(const QString& dir) { QSettings().setValue(QLatin1String(kDirectoryKey), dir); }

SessionLibraryDialog::SessionLibraryDialog(QWidget* parent)
    : QDialog(parent), m_folder(new QLabel(this)), m_table(new QTableWidget(this)), m_open(new QPushButton(tr("&Open"), this)) {
    setObjectName(QStringLiteral("sessionLibrary"));
    setWindowTitle(tr("Session Library"));
    m_folder->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Source"), tr("Imported"), tr("GPU"), tr("Duration"), tr("Size")});
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSortingEnabled(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(Source, QHeaderView::Stretch);
    connect(m_table, &QTableWidget::itemDoubleClicked, this, &SessionLibraryDialog::openSelected);

    auto* rename = new QPushButton(tr("&Rename…"), this);
    auto* remove = new QPushButton(tr("&Delete"), this);
    auto* exportButton = new QPushButton(tr("&Export…"), this);
    auto* importButton = new QPushButton(tr("&Import…"), this);
    auto* folder = new QPushButton(tr("Change &Folder…"), this);
    connect(m_open, &QPushButton::clicked, this, &SessionLibraryDialog::openSelected);
    connect(rename, &QPushButton::clicked, this, &SessionLibraryDialog::renameSelected);
    connect(remove, &QPushButton::clicked, this, &SessionLibraryDialog::deleteSelected);
    connect(exportButton, &QPushButton::clicked, this, &SessionLibraryDialog::exportSelected);
    connect(importButton, &QPushButton::clicked, this, &SessionLibraryDialog::importFile);
    connect(folder, &QPushButton::clicked, this, &SessionLibraryDialog::changeFolder);
    m_open->setDefault(true);

    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {m_open, rename, remove, exportButton, importButton, folder})
        buttons->addWidget(b);
    buttons->addStretch(1);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    buttons->addWidget(close);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_folder);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    resize(980, 460);
    reload();
}

int SessionLibraryDialog::rowCount() const { return m_table->rowCount(); }

void SessionLibraryDialog::reload() {
    const QString dir = libraryDirectory();
    m_folder->setText(tr("Library folder: %1").arg(QDir::toNativeSeparators(dir)));
    const SessionLibrary library(QFile::encodeName(dir).toStdString());
    const auto entries = library.list();
    m_table->setSortingEnabled(false);
    m_table->setRowCount(static_cast<int>(entries.size()));
    for (int row = 0; row < static_cast<int>(entries.size()); ++row) {
        const SessionLibrary::Entry& e = entries[static_cast<size_t>(row)];
        auto* name = new QTableWidgetItem(QString::fromStdString(e.name));
        name->setData(Qt::UserRole, QString::fromStdString(e.path));
        name->setToolTip(QString::fromStdString(e.path));
        m_table->setItem(row, Name, name);
        m_table->setItem(row, Source, new QTableWidgetItem(QString::fromStdString(e.sourcePath)));
        const QDateTime created = QDateTime::fromMSecsSinceEpoch(e.createdAtNs / 1'000'000);
        auto* date = new QTableWidgetItem(QLocale().toString(created, QLocale::ShortFormat));
        date->setData(Qt::UserRole + 1, created);
        m_table->setItem(row, Created, date);
        m_table->setItem(row, Gpus, new QTableWidgetItem(QString::fromStdString(e.gpus)));
        m_table->setItem(row, Duration, new QTableWidgetItem(formatDuration(e.durationNs)));
        m_table->setItem(row, Size, new QTableWidgetItem(formatBytes(static_cast<int64_t>(e.fileSize))));
    }
    m_table->setSortingEnabled(true);
    if (m_table->rowCount())
        m_table->selectRow(0);
    m_open->setEnabled(m_table->rowCount() > 0);
}

QString SessionLibraryDialog::selectedPath() const {
    const auto rows = m_table->selectionModel()->selectedRows(Name);
    return rows.isEmpty() ? QString() : rows.first().data(Qt::UserRole).toString();
}

void SessionLibraryDialog::openSelected() {
    const QString path = selectedPath();
    if (path.isEmpty())
        return;
    emit openRequested(path);
    accept();
}

void SessionLibraryDialog::renameSelected() {
    const QString path = selectedPath();
    if (path.isEmpty())
        return;
    const auto rows = m_table->selectionModel()->selectedRows(Name);
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename Session"), tr("Name:"), QLineEdit::Normal,
                                               rows.first().data().toString(), &ok);
    if (!ok || name.trimmed().isEmpty())
        return;
    std::string error;
    if (!SessionLibrary(QFile::encodeName(libraryDirectory()).toStdString())
             .rename(QFile::encodeName(path).toStdString(), name.trimmed().toStdString(), &error))
        QMessageBox::warning(this, tr("Rename failed"), QString::fromStdString(error));
    reload();
}

void SessionLibraryDialog::deleteSelected() {
    const QString path = selectedPath();
    if (path.isEmpty())
        return;
    if (QMessageBox::question(this, tr("Delete Session"),
                              tr("Delete the stored session %1? The original trace file is not touched.")
                                  .arg(QFileInfo(path).fileName())) != QMessageBox::Yes)
        return;
    std::string error;
    if (!SessionLibrary(QFile::encodeName(libraryDirectory()).toStdString()).remove(QFile::encodeName(path).toStdString(), &error))
        QMessageBox::warning(this, tr("Delete failed"), QString::fromStdString(error));
    reload();
}

void SessionLibraryDialog::exportSelected() {
    const QString path = selectedPath();
    if (path.isEmpty())
        return;
    const QString target = QFileDialog::getSaveFileName(this, tr("Export Session"), QDir::home().filePath(QFileInfo(path).fileName()),
                                                        tr("Warpscope sessions (*.warpscope)"));
    if (target.isEmpty())
        return;
    QFile::remove(target);
    if (!QFile::copy(path, target))
        QMessageBox::warning(this, tr("Export failed"), tr("Could not copy the session to %1.").arg(target));
}

void SessionLibraryDialog::importFile() {
    const QString file = QFileDialog::getOpenFileName(this, tr("Import Session"), QDir::homePath(),
                                                      tr("Warpscope sessions (*.warpscope);;All files (*)"));
    if (file.isEmpty())
        return;
    std::string error;
    if (!SessionLibrary(QFile::encodeName(libraryDirectory()).toStdString()).importSessionFile(QFile::encodeName(file).toStdString(), &error))
        QMessageBox::warning(this, tr("Import failed"), tr("%1 is not a Warpscope session: %2").arg(file, QString::fromStdString(error)));
    reload();
}

void SessionLibraryDialog::changeFolder() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Session Library Folder"), libraryDirectory());
    if (dir.isEmpty())
        return;
    setLibraryDirectory(dir);
    reload();
}

} // namespace ws
