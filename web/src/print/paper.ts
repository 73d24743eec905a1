/** Thermal paper: 58 and 80 mm rolls, 32 and 48 characters a line in the printer's font A. */
export type PaperWidth = 58 | 80;
export const PAPER_WIDTHS: readonly PaperWidth[] = [58, 80];
export const COLUMNS: Record<PaperWidth, number> = { 58: 32, 80: 48 };
