import { useState } from 'react';
import { Picture } from '../../components/ui/picture.tsx';
import { Cover } from './parts.tsx';

/** A service's pictures: the chosen one large (4:3), the others as thumbnails; a placeholder without any. */
export function Gallery({ images, title, seed }: { images: readonly string[]; title: string; seed: string }) {
  const [index, setIndex] = useState(0);
  const current = images[Math.min(index, images.length - 1)];
  if (!current) {
    return (
      <div className="gallery">
        <div className="gallery__main">
          <Cover src={null} seed={seed} alt="Продавец ещё не добавил изображений" />
        </div>
      </div>
    );
  }
  return (
    <div className="gallery">
      <div className="gallery__main">
        <Picture
          className="cover"
          src={current}
          sizes="(max-width: 900px) calc(100vw - 32px), 800px"
          alt={`${title} — изображение ${index + 1} из ${images.length}`}
          width={800}
          height={600}
          priority
        />
      </div>
      {images.length > 1 && (
        <ul className="gallery__thumbs" aria-label="Изображения услуги">
          {images.map((src, i) => (
            <li key={src}>
              <button type="button" className="gallery__thumb" aria-pressed={i === index} aria-label={`Изображение ${i + 1}`} onClick={() => setIndex(i)}>
                <Picture src={src} sizes="96px" alt="" width={96} height={72} decoding="async" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
