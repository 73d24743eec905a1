/**
 * How many SMS segments a text costs. GSM-7 fits 160 characters in one SMS and 153 per part once
 * it is split (extension characters such as `€ [ ] { } ~ ^ \ |` take two); a single character
 * outside GSM-7 (a curly quote, an emoji) turns the whole text into UCS-2: 70 in one, 67 per part,
 * counted in UTF-16 units. Swahili is plain Latin, so most of our texts are GSM-7. The counting is
 * Twilio's maintained `sms-segments-calculator`; smart encoding stays off because our gateways do
 * not replace characters, so a curly quote really is billed as UCS-2.
 */
import { SegmentedMessage } from 'sms-segments-calculator';

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegments {
  encoding: SmsEncoding;
  segments: number;
}

export function countSegments(text: string): SmsSegments {
  if (text.length === 0) return { encoding: 'GSM-7', segments: 0 };
  const message = new SegmentedMessage(text, 'auto', false);
  return { encoding: message.encodingName, segments: message.segmentsCount };
}
