"""The attachment store's tables (`sql_history`'s third store, see `history.attachments`):
its migrations and current definition."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ctxchat.kit import Store

if TYPE_CHECKING:
    from sqlalchemy import Table
    from sqlalchemy.engine import Connection

BLOB_TABLE = "ctxchat_attachments"
USE_TABLE = "ctxchat_attachment_uses"


class AttachmentTables(NamedTuple):
    blobs: Table
    uses: Table


def _m1_attachments(conn: Connection) -> None:
    """The blobs, one per owner and hash, and which turn of which history uses which."""
    import sqlalchemy as sa

    metadata = sa.MetaData()
    sa.Table(
        BLOB_TABLE,
        metadata,
        sa.Column("home_id", sa.Text, primary_key=True),
        sa.Column("user_key", sa.Text, primary_key=True),
        sa.Column("sha256", sa.Text, primary_key=True),
        sa.Column("kind", sa.Text, nullable=False),  # "text" or "image"
        sa.Column("size", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("content", sa.LargeBinary, nullable=False),
    )
    uses = sa.Table(
        USE_TABLE,
        metadata,
        sa.Column("history_key", sa.Text, primary_key=True),
        sa.Column("turn_id", sa.Text, primary_key=True),
        sa.Column("sha256", sa.Text, primary_key=True),
        sa.Column("home_id", sa.Text, primary_key=True),
        sa.Column("user_key", sa.Text, primary_key=True),
        # Whether this turn's searchable text holds the attachment's text (see below).
        sa.Column("indexed", sa.Boolean, nullable=False),
    )
    metadata.create_all(conn)
    # Removing a blob asks whether any use of its owner is left.
    sa.Index(f"{USE_TABLE}_blob", uses.c.home_id, uses.c.user_key, uses.c.sha256).create(conn)


def _tables() -> AttachmentTables:
    import sqlalchemy as sa

    metadata = sa.MetaData()
    blobs = sa.Table(
        BLOB_TABLE,
        metadata,
        sa.Column("home_id", sa.Text, primary_key=True),
        sa.Column("user_key", sa.Text, primary_key=True),
        sa.Column("sha256", sa.Text, primary_key=True),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("size", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("content", sa.LargeBinary, nullable=False),
    )
    uses = sa.Table(
        USE_TABLE,
        metadata,
        sa.Column("history_key", sa.Text, primary_key=True),
        sa.Column("turn_id", sa.Text, primary_key=True),
        sa.Column("sha256", sa.Text, primary_key=True),
        sa.Column("home_id", sa.Text, primary_key=True),
        sa.Column("user_key", sa.Text, primary_key=True),
        # Whether this turn's searchable text holds the attachment's text (see below).
        sa.Column("indexed", sa.Boolean, nullable=False),
    )
    return AttachmentTables(blobs, uses)


# Numbered steps, append only. Readable from 0: a read-only database from before this store
# still reads, since its messages hold their attachments inline.
ATTACHMENTS = Store("attachments", {1: _m1_attachments}, _tables, readable_from=0)
