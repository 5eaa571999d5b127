#include "welcome_page.h"

#include "app_environment.h"
#include "import/import_formats.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace ws {

WelcomePage::WelcomePage(QWidget* parent)
    : QWidget(parent), m_recent(new QListWidget(this)), m_sample(new QPushButton(this)),
      m_primary(new QHBoxLayout), m_more(new QHBoxLayout) {
    setObjectName(QStringLiteral("welcomePage"));
    auto* logo = new QLabel(this);
    logo->setPixmap(AppEnvironment::applicationIcon().pixmap(96, 96));
    auto* title = new QLabel(tr("Warpscope"), this);
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 2.2);
    titleFont.setBold(true);
    title->setFont(titleFont);
    auto* tagline = new QLabel(tr("See where GPU time goes, why the GPU idles, where memory peaks, "
                                  "and which line of code is responsible."),
                               this);
    tagline->setWordWrap(true);

    auto* open = new QPushButton(tr("Open Trace…"), this);
    open->setDefault(true);
    connect(open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    m_sample->setText(tr("Open Sample Session"));
    connect(m_sample, &QPushButton::clicked, this, &WelcomePage::sampleRequested);
    m_primary->addWidget(open);
    m_primary->addWidget(m_sample);
    m_primary->addStretch(1);
    m_more->addStretch(1);

    auto* hint = new QLabel(tr("Or drop trace files onto this window."), this);
    hint->setStyleSheet(QStringLiteral("color: palette(mid);"));

    m_recent->setObjectName(QStringLiteral("recentList"));
    m_recent->setMaximumHeight(220);
    connect(m_recent, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit recentRequested(item->data(Qt::UserRole).toString()); });

    QString reads = QStringLiteral("<b>%1</b><br>").arg(tr("Reads"));
    for (const ImportFormat& f : importFormats()) {
        m_listed.append(f.format);
        reads += QStringLiteral("%1 <span style='color:#777'>(<tt>%2</tt>)</span><br>")
                     .arg(formatDescription(f.format).toHtmlEscaped(), QString::fromUtf8(f.files).toHtmlEscaped());
    }
    reads += tr("Files are recognized by their content; local files, URLs (S3, Google Cloud Storage, Azure, HTTP) "
                "and folders over SSH.");
    auto* formats = new QLabel(reads, this);
    formats->setObjectName(QStringLiteral("welcomeFormats"));
    formats->setWordWrap(true);

    auto* header = new QHBoxLayout;
    header->addWidget(logo);
    auto* headerText = new QVBoxLayout;
    headerText->addWidget(title);
    headerText->addWidget(tagline);
    header->addLayout(headerText, 1);

    auto* column = new QVBoxLayout;
    column->addLayout(header);
    column->addSpacing(16);
    column->addLayout(m_primary);
    column->addLayout(m_more);
    column->addWidget(hint);
    column->addSpacing(16);
    column->addWidget(new QLabel(tr("<b>Recent files</b>"), this));
    column->addWidget(m_recent);
    column->addSpacing(16);
    column->addWidget(formats);
    column->addStretch(1);

    auto* outer = new QHBoxLayout(this);
    outer->addStretch(1);
    outer->addLayout(column, 4);
    outer->addStretch(1);
    outer->setContentsMargins(24, 48, 24, 24);
}

void WelcomePage::setRecentFiles(const QStringList& files) {
    m_recent->clear();
    for (const QString& f : files) {
        auto* item = new QListWidgetItem(QFileInfo(f).fileName() + QStringLiteral("  —  ") +
                                             QDir::toNativeSeparators(QFileInfo(f).absolutePath()),
                                         m_recent);
        item->setData(Qt::UserRole, f);
        item->setToolTip(f);
    }
    if (files.isEmpty())
        new QListWidgetItem(tr("No recent files yet."), m_recent);
}

void WelcomePage::setSampleAvailable(bool available) { m_sample->setEnabled(available); }

QPushButton* WelcomePage::addStartAction(QAction* action, bool primary) {
    auto* button = new QPushButton(action->text().remove(QLatin1Char('&')), this);
    button->setObjectName(action->objectName().isEmpty() ? QString() : action->objectName() + QStringLiteral("Button"));
    button->setToolTip(action->statusTip());
    connect(button, &QPushButton::clicked, action, &QAction::trigger);
    QBoxLayout* row = primary ? m_primary : m_more;
    if (primary)
        row->insertWidget(0, button); // the capture comes first: the mission's main entry
    else
        row->insertWidget(row->count() - 1, button);
    return button;
}

QString WelcomePage::formatDescription(TraceFormat format) {
    switch (format) {
    case TraceFormat::ChromeJson: return tr("PyTorch profiler / Kineto traces and Chrome trace JSON");
    case TraceFormat::NsightSqlite: return tr("Nsight Systems SQLite exports");
    case TraceFormat::NsightReport: return tr("Nsight Systems reports, where Nsight Systems is installed");
    case TraceFormat::NvprofSqlite: return tr("nvprof databases");
    case TraceFormat::RocprofJson: return tr("rocprofiler-sdk (rocprofv3) JSON");
    case TraceFormat::Xplane: return tr("XLA XSpace profiles (JAX, TensorFlow, PyTorch/XLA)");
    case TraceFormat::TorchMemorySnapshot: return tr("PyTorch memory snapshots");
    case TraceFormat::TorchMemoryTimeline: return tr("PyTorch memory timelines");
    case TraceFormat::WarpscopeCapture: return tr("Warpscope captures");
    case TraceFormat::WarpscopeSession: return tr("Warpscope sessions");
    case TraceFormat::Unknown: break;
    }
    return {};
}

} // namespace ws
