// Makes pictures' variants with sharp (libvips) in a child process of the server (server/modules/files/encoder.ts,
// ADR 072): libvips' threads, their allocator arenas and its decoders' memory leave with this process when it has
// been idle a while, and a picture that crashes a decoder ends this process, not the server. Plain JavaScript: a
// forked process does not go through the TypeScript loader.
//
// Asked over IPC: { id, input, max, outputs: [{ output, width, format }] }; answers { id, made: [output, …] } with the
// outputs it wrote (none when the input is not a picture libvips can read, or is larger than max pixels).
import sharp from 'sharp';

// Each variant streams its original in once: the operation cache (up to 50 MB) would never serve a hit.
sharp.cache(false);

async function encode({ input, max, outputs }) {
  const made = [];
  for (const { output, width, format } of outputs) {
    try {
      // rotate(): EXIF orientation applied; metadata (EXIF, GPS) is not copied into the variant.
      const picture = sharp(input, { limitInputPixels: max }).rotate().resize({ width, withoutEnlargement: true });
      // AVIF at effort 2: 20–25% below WebP at a quarter of the default effort's time (ADR 022's table).
      const encoded = format === 'avif' ? picture.avif({ quality: 50, effort: 2 }) : picture.webp({ quality: 75 });
      await encoded.toFile(output);
      made.push(output);
    } catch {
      // Not a picture libvips can read (a truncated upload, a bomb): no variant.
    }
  }
  return made;
}

process.on('message', (job) => {
  encode(job).then((made) => process.send({ id: job.id, made }));
});
// The server went away (or closed the channel when idle): nothing more will be asked.
process.on('disconnect', () => process.exit(0));
