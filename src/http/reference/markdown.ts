/**
 * The OpenAPI description's Markdown (CommonMark with tables) as HTML for the reference page.
 * Raw HTML in the source is escaped, not passed through: the page's text comes from route
 * descriptions, and nothing in them may become markup or script.
 */
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** Block Markdown: paragraphs, lists, tables. */
export const renderMarkdown = (text: string | undefined): string => (text ? markdown.render(text) : '');

/** One line of Markdown (a table cell, a field's description), without a wrapping paragraph. */
export const renderInline = (text: string | undefined): string => (text ? markdown.renderInline(text) : '');

/** Text for an HTML attribute or element, escaped. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
