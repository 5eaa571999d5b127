#include "bookmark_model.h"

#include "format.h"

#include <algorithm>

namespace ws {

BookmarkModel::BookmarkModel(int64_t sessionStart, QObject* parent)
    : QAbstractTableModel(parent), m_sessionStart(sessionStart) {}

void BookmarkModel::setBookmarks(std::vector<Bookmark> bookmarks) {
    beginResetModel();
    m_bookmarks = std::move(bookmarks);
    std::sort(m_bookmarks.begin(), m_bookmarks.end(), [](const Bookmark& a, const Bookmark& b) { return a.ts < b.ts; });
    endResetModel();
}

int BookmarkModel::add(int64_t ts, const QString& note) {
    auto it = std::upper_bound(m_bookmarks.begin(), m_bookmarks.end(), ts,
                               [](int64_t t, const Bookmark& b) { return t < b.ts; });
    const int row = static_cast<int>(it - m_bookmarks.begin());
    beginInsertRows({}, row, row);
    m_bookmarks.insert(it, Bookmark{ts, note.toStdString()});
    endInsertRows();
    emit changed();
    return row;
}

void BookmarkModel::removeRow(int row) {
    if (row < 0 || row >= rowCount())
        return;
    beginRemoveRows({}, row, row);
    m_bookmarks.erase(m_bookmarks.begin() + row);
    endRemoveRows();
    emit changed();
}

int BookmarkModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_bookmarks.size());
}

int BookmarkModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant BookmarkModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Bookmark& b = m_bookmarks[static_cast<size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        if (index.column() == Time)
            return formatDuration(b.ts - m_sessionStart);
        return QString::fromStdString(b.note);
    }
    if (role == Qt::UserRole)
        return static_cast<qlonglong>(b.ts);
    return {};
}

bool BookmarkModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || index.column() != Note || role != Qt::EditRole)
        return false;
    m_bookmarks[static_cast<size_t>(index.row())].note = value.toString().toStdString();
    emit dataChanged(index, index);
    emit changed();
    return true;
}

Qt::ItemFlags BookmarkModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == Note)
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant BookmarkModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == Time ? tr("Time") : tr("Note");
}

} // namespace ws
