/** The question's language: Swahili when it has Swahili words, English otherwise (as the API's assistant decides). */
import type { Language } from '../schemas.js';

const SWAHILI =
  /\b(mauzo|mapato|leo|jana|wiki|mwezi|hii|huu|bidhaa|bei|deni|madeni|nani|nini|gani|kiasi|ngapi|zipi|je|wateja|mteja|duka|zinazoisha|zinaisha|zinazouzwa|wanaodaiwa|wanadaiwa|matumizi|gharama|zimebaki|weka|iwe|ya|za|wa|ni|na|nipe|nionyeshe|naomba|tafadhali|asante|sukari|mchele|unga)\b/;

export function languageOf(text: string): Language {
  return SWAHILI.test(text.toLowerCase()) ? 'sw' : 'en';
}
