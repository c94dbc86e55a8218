// Multipart bodies built by hand, well-formed or broken on purpose.

import { BOUNDARY, multipartBody, PNG, type Part } from '../multipart.ts';

export interface MultipartCase {
  where: string;
  payload: Buffer;
  contentType: string;
}

const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** Hostile multipart bodies for an upload endpoint (field "file"), each named for the report. */
export function hostileMultipart(): MultipartCase[] {
  const png = (extra: Partial<Part> = {}) => ({ name: 'file', filename: 'a.png', type: 'image/png', data: PNG, ...extra });
  const whole = multipartBody([png()]).payload;
  const big = Buffer.alloc(20 * 1024 * 1024 + 1024, 0x41);
  big.set(PNG, 0);
  const cases: MultipartCase[] = [
    { where: 'valid PNG (baseline)', payload: whole, contentType: TYPE },
    { where: 'cut mid-part', payload: whole.subarray(0, Math.floor(whole.length / 2)), contentType: TYPE },
    { where: 'cut inside the part headers', payload: whole.subarray(0, 60), contentType: TYPE },
    { where: 'no closing boundary', payload: multipartBody([png()], { close: false }).payload, contentType: TYPE },
    { where: 'file over 20 MB', payload: multipartBody([png({ data: big })]).payload, contentType: TYPE },
    { where: 'file over 20 MB, cut', payload: multipartBody([png({ data: big })], { close: false }).payload.subarray(0, 20 * 1024 * 1024 + 512), contentType: TYPE },
    { where: 'boundary missing from the header', payload: whole, contentType: 'multipart/form-data' },
    { where: 'other boundary in the header', payload: whole, contentType: 'multipart/form-data; boundary=nope' },
    { where: 'empty body', payload: Buffer.alloc(0), contentType: TYPE },
    { where: 'closing boundary only', payload: Buffer.from(`--${BOUNDARY}--\r\n`), contentType: TYPE },
    { where: 'empty file', payload: multipartBody([png({ data: '' })]).payload, contentType: TYPE },
    { where: 'two files', payload: multipartBody([png(), png({ filename: 'b.png' })]).payload, contentType: TYPE },
    { where: 'field name not "file"', payload: multipartBody([png({ name: 'avatar' })]).payload, contentType: TYPE },
    { where: 'text field only', payload: multipartBody([{ name: 'file', data: 'просто текст' }]).payload, contentType: TYPE },
    { where: 'filename with lone surrogate and NUL', payload: multipartBody([png({ filename: 'a\ud800\u0000b.png' })]).payload, contentType: TYPE },
    { where: 'filename 10 000 characters', payload: multipartBody([png({ filename: `${'я'.repeat(10_000)}.png` })]).payload, contentType: TYPE },
    { where: 'filename with path traversal', payload: multipartBody([png({ filename: '../../../../etc/passwd' })]).payload, contentType: TYPE },
    { where: 'no name in Content-Disposition', payload: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${BOUNDARY}--\r\n`), contentType: TYPE },
    { where: 'garbage part headers', payload: Buffer.from(`--${BOUNDARY}\r\n\u0000\u0001: \ud800\r\nContent-Disposition\r\n\r\nx\r\n--${BOUNDARY}--\r\n`), contentType: TYPE },
    { where: '200 small fields before the file', payload: multipartBody([...Array.from({ length: 200 }, (_, i) => ({ name: `f${i}`, data: 'x' })), png()]).payload, contentType: TYPE },
    { where: 'text field over 64 KB before the file', payload: multipartBody([{ name: 'note', data: 'x'.repeat(70 * 1024) }, png()]).payload, contentType: TYPE },
    { where: 'JSON body with a multipart type', payload: Buffer.from('{"file":"a.png"}'), contentType: TYPE },
    { where: 'multipart body as JSON', payload: whole, contentType: 'application/json' },
    { where: 'multipart body without a type', payload: whole, contentType: '' },
  ];
  return cases;
}
