#include "welcome_page.h"

#include "app_environment.h"

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
    : QWidget(parent), m_recent(new QListWidget(this)), m_sample(new QPushButton(this)) {
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
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(open);
    buttons->addWidget(m_sample);
    buttons->addStretch(1);

    auto* hint = new QLabel(tr("Or drop trace files onto this window."), this);
    hint->setStyleSheet(QStringLiteral("color: palette(mid);"));

    m_recent->setObjectName(QStringLiteral("recentList"));
    m_recent->setMaximumHeight(220);
    connect(m_recent, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit recentRequested(item->data(Qt::UserRole).toString()); });

    auto* formats = new QLabel(
        tr("<b>Reads</b><br>PyTorch profiler / Kineto traces (<tt>.pt.trace.json</tt>, <tt>.json.gz</tt>, "
           "<tt>.json.zst</tt>)<br>Chrome trace JSON (object and array forms)<br>Nsight Systems SQLite exports "
           "(<tt>nsys export --type sqlite</tt>), and reports (<tt>.nsys-rep</tt>) where Nsight Systems is installed; "
           "nvprof databases (<tt>.nvvp</tt>, <tt>.sql</tt>)<br>"
           "Warpscope captures (<tt>.wscap</tt>, capture folders) and sessions (<tt>.warpscope</tt>)"),
        this);
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
    column->addLayout(buttons);
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

} // namespace ws
