#include "settings_dialog.h"

#include "import/nsys_report_export.h"
#include "source/editor_command.h"
#include "frame_folding_settings.h"
#include "source_settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QSettings>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ws {

namespace {

const QString kCustom = QStringLiteral("custom");
const char* const kNsysKey = "nsight/nsysPath";

} // namespace

SettingsDialog::SettingsDialog(QWidget* parent)
    : QDialog(parent), m_editor(new QComboBox(this)), m_template(new QLineEdit(this)),
      m_preview(new QLabel(this)), m_rules(new QTableWidget(0, 2, this)), m_nsys(new QLineEdit(this)),
      m_nsysStatus(new QLabel(this)), m_fold(new QCheckBox(tr("Fold dispatch and decorator frames"), this)),
      m_foldPatterns(new QLineEdit(this)) {
    setWindowTitle(tr("Settings"));
    setObjectName(QStringLiteral("settingsDialog"));

    for (const EditorPreset& p : editorPresets())
        m_editor->addItem(p.id == std::string_view("system") ? tr("System default")
                                                             : QString::fromUtf8(p.name),
                          QString::fromUtf8(p.id));
    m_editor->addItem(tr("Custom command"), kCustom);
    m_template->setPlaceholderText(tr("e.g. code -g %f:%l:%c"));
    m_preview->setWordWrap(true);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* editorBox = new QGroupBox(tr("Open in editor"), this);
    auto* form = new QFormLayout(editorBox);
    form->addRow(tr("Editor:"), m_editor);
    form->addRow(tr("Command:"), m_template);
    form->addRow(tr("Runs:"), m_preview);
    auto* help =
        new QLabel(tr("%f file, %l line, %c column, %% a percent sign. Arguments are split at spaces; "
                      "use '…' or \"…\" to keep spaces. The command runs directly, never through a shell."),
                   editorBox);
    help->setWordWrap(true);
    form->addRow(help);

    auto* rulesBox = new QGroupBox(tr("Path substitution (tried in order)"), this);
    m_rules->setHorizontalHeaderLabels({tr("Recorded prefix"), tr("Local prefix")});
    m_rules->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_rules->verticalHeader()->hide();
    m_rules->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto* add = new QPushButton(tr("Add"), rulesBox);
    auto* remove = new QPushButton(tr("Remove"), rulesBox);
    auto* up = new QPushButton(tr("Move Up"), rulesBox);
    auto* down = new QPushButton(tr("Move Down"), rulesBox);
    auto* buttons = new QVBoxLayout;
    for (QPushButton* b : {add, remove, up, down})
        buttons->addWidget(b);
    buttons->addStretch(1);
    auto* rulesLayout = new QHBoxLayout(rulesBox);
    rulesLayout->addWidget(m_rules, 1);
    rulesLayout->addLayout(buttons);
    connect(add, &QPushButton::clicked, this, [this] {
        addRule(QStringLiteral("/workspace/proj"), QStringLiteral("~/src/proj"));
        m_rules->setCurrentCell(m_rules->rowCount() - 1, 0);
        m_rules->editItem(m_rules->item(m_rules->rowCount() - 1, 0));
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_rules->currentRow() >= 0) m_rules->removeRow(m_rules->currentRow());
    });
    connect(up, &QPushButton::clicked, this, [this] { moveRule(-1); });
    connect(down, &QPushButton::clicked, this, [this] { moveRule(1); });

    // Nsight Systems reports (.nsys-rep) are converted by the user's own nsys (nsys_report_export.h).
    auto* nsysBox = new QGroupBox(tr("Nsight Systems"), this);
    m_nsys->setObjectName(QStringLiteral("nsysEdit"));
    m_nsys->setPlaceholderText(tr("Found automatically (PATH, /opt/nvidia/nsight-systems*)"));
    m_nsysStatus->setObjectName(QStringLiteral("nsysStatus"));
    m_nsysStatus->setWordWrap(true);
    m_nsysStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* browse = new QPushButton(tr("Browse…"), nsysBox);
    auto* nsysRow = new QHBoxLayout;
    nsysRow->addWidget(m_nsys, 1);
    nsysRow->addWidget(browse);
    auto* nsysForm = new QFormLayout(nsysBox);
    nsysForm->addRow(tr("nsys:"), nsysRow);
    nsysForm->addRow(m_nsysStatus);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Choose nsys"), m_nsys->text());
        if (!file.isEmpty())
            m_nsys->setText(file);
    });
    m_nsys->setText(nsysPath());
    connect(m_nsys, &QLineEdit::textChanged, this, &SettingsDialog::updateNsysStatus);
    updateNsysStatus();

    // Dispatch and decorator frames (core/analysis/frame_folding.h) folded in the Flame Graph and
    // hidden in the Stack tab.
    auto* framesBox = new QGroupBox(tr("Flame Graph and Stack tab"), this);
    m_fold->setObjectName(QStringLiteral("foldCheck"));
    m_foldPatterns->setObjectName(QStringLiteral("foldPatternsEdit"));
    m_foldPatterns->setPlaceholderText(QString::fromStdString(FrameFolding::defaults().text()));
    m_foldPatterns->setClearButtonEnabled(true);
    auto* framesHelp = new QLabel(tr("Comma-separated. A plain name matches a function's last dotted part "
                                     "(wrapper matches can_return_tuple.<locals>.wrapper); a pattern with * or . "
                                     "matches the whole name. Empty: the defaults shown."),
                                  framesBox);
    framesHelp->setWordWrap(true);
    auto* framesForm = new QFormLayout(framesBox);
    framesForm->addRow(m_fold);
    framesForm->addRow(tr("Patterns:"), m_foldPatterns);
    framesForm->addRow(framesHelp);
    {
        const FrameFoldingSettings folding = FrameFoldingSettings::load();
        m_fold->setChecked(folding.enabled);
        m_foldPatterns->setText(folding.patterns);
    }

    auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(box, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(editorBox);
    layout->addWidget(rulesBox, 1);
    layout->addWidget(nsysBox);
    layout->addWidget(framesBox);
    layout->addWidget(box);

    const SourceSettings s = SourceSettings::load();
    const int idx = m_editor->findData(s.editorId);
    m_editor->setCurrentIndex(idx >= 0 ? idx : 0);
    if (s.editorId == kCustom) m_template->setText(s.customTemplate);
    for (const PathMappingRule& r : s.pathRules)
        addRule(QString::fromStdString(r.from), QString::fromStdString(r.to));
    editorChanged();
    connect(m_editor, &QComboBox::currentIndexChanged, this, &SettingsDialog::editorChanged);
    connect(m_template, &QLineEdit::textChanged, this, &SettingsDialog::updatePreview);
    resize(640, 660);
}

void SettingsDialog::editorChanged() {
    const QString id = m_editor->currentData().toString();
    const bool custom = id == kCustom;
    m_template->setReadOnly(!custom);
    if (!custom) {
        const EditorPreset* p = findEditorPreset(id.toStdString());
        m_template->setText(p ? QString::fromUtf8(p->commandTemplate) : QString());
    }
    updatePreview();
}

void SettingsDialog::updatePreview() {
    std::string why;
    const auto args = expandEditorCommand(m_template->text().toStdString(),
                                          SourceLocation{"/path/to/model.py", 42, 1}, &why);
    if (!args) {
        m_preview->setText(tr("Invalid command: %1").arg(QString::fromStdString(why)));
        return;
    }
    QStringList shown;
    for (const std::string& a : *args)
        shown << QStringLiteral("[%1]").arg(QString::fromStdString(a));
    m_preview->setText(shown.join(QLatin1Char(' ')));
}

void SettingsDialog::addRule(const QString& from, const QString& to) {
    const int row = m_rules->rowCount();
    m_rules->insertRow(row);
    m_rules->setItem(row, 0, new QTableWidgetItem(from));
    m_rules->setItem(row, 1, new QTableWidgetItem(to));
}

void SettingsDialog::moveRule(int delta) {
    const int row = m_rules->currentRow();
    const int to = row + delta;
    if (row < 0 || to < 0 || to >= m_rules->rowCount()) return;
    for (int c = 0; c < 2; ++c) {
        QTableWidgetItem* a = m_rules->takeItem(row, c);
        QTableWidgetItem* b = m_rules->takeItem(to, c);
        m_rules->setItem(row, c, b);
        m_rules->setItem(to, c, a);
    }
    m_rules->setCurrentCell(to, m_rules->currentColumn());
}

SourceSettings SettingsDialog::edited() const {
    SourceSettings s;
    s.editorId = m_editor->currentData().toString();
    if (s.editorId == kCustom) s.customTemplate = m_template->text();
    for (int r = 0; r < m_rules->rowCount(); ++r) {
        const QTableWidgetItem* from = m_rules->item(r, 0);
        const QTableWidgetItem* to = m_rules->item(r, 1);
        if (from && to && !from->text().trimmed().isEmpty() && !to->text().trimmed().isEmpty())
            s.pathRules.push_back({from->text().trimmed().toStdString(), to->text().trimmed().toStdString()});
    }
    return s;
}

QString SettingsDialog::nsysPath() { return QSettings().value(QLatin1String(kNsysKey)).toString(); }

void SettingsDialog::updateNsysStatus() {
    // What opening a report would run: the path typed here, or the one Warpscope finds.
    NsysExportOptions options;
    options.nsys = QFile::encodeName(m_nsys->text().trimmed()).toStdString();
    std::string why;
    const std::string found = findNsys(options, &why);
    m_nsysStatus->setText(found.empty()
                              ? tr("Reports (.nsys-rep) cannot be opened: %1. Install Nsight Systems or choose its nsys.")
                                    .arg(QString::fromStdString(why))
                              : tr("Reports (.nsys-rep) are converted with %1.").arg(QFile::decodeName(found.c_str())));
}

void SettingsDialog::accept() {
    QSettings().setValue(QLatin1String(kNsysKey), m_nsys->text().trimmed());
    edited().save();
    FrameFoldingSettings folding;
    folding.enabled = m_fold->isChecked();
    folding.patterns = m_foldPatterns->text().trimmed();
    folding.save();
    QDialog::accept();
}

} // namespace ws
