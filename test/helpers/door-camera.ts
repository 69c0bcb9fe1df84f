import { PNG } from 'pngjs';

/** An RGBA picture, as pngjs reads one. */
export interface Picture {
  readonly width: number;
  readonly height: number;
  readonly rgba: Buffer;
}

export function pictureOfPng(png: Buffer): Picture {
  const image = PNG.sync.read(png);
  return { width: image.width, height: image.height, rgba: image.data };
}

/** What the camera shows for `frames` frames: a picture centred on white, or white alone (null). */
export interface Shot {
  readonly picture: Picture | null;
  readonly frames: number;
}

/**
 * A Y4M video (YUV4MPEG2, raw 4:2:0), the file format Chromium's fake camera plays
 * (`--use-file-for-fake-video-capture`) and loops. Square frames of `size` pixels (even), each
 * picture drawn at the centre on white, grey only: luma from the RGBA (alpha over white, BT.601
 * weights), both chroma planes neutral (128).
 */
export function y4mVideo(shots: readonly Shot[], size: number, fps: number): Buffer {
  if (size % 2 !== 0) throw new Error('4:2:0 needs an even frame size');
  const chroma = Buffer.alloc((size / 2) * (size / 2) * 2, 128);
  const frameOf = (picture: Picture | null): Buffer => {
    const luma = Buffer.alloc(size * size, 255);
    if (picture !== null) {
      if (picture.width > size || picture.height > size) throw new Error('picture larger than the frame');
      const left = Math.floor((size - picture.width) / 2);
      const top = Math.floor((size - picture.height) / 2);
      for (let y = 0; y < picture.height; y++) {
        for (let x = 0; x < picture.width; x++) {
          const i = (y * picture.width + x) * 4;
          const alpha = picture.rgba[i + 3] / 255;
          const grey = 0.299 * picture.rgba[i] + 0.587 * picture.rgba[i + 1] + 0.114 * picture.rgba[i + 2];
          luma[(top + y) * size + left + x] = Math.round(grey * alpha + 255 * (1 - alpha));
        }
      }
    }
    return Buffer.concat([Buffer.from('FRAME\n', 'latin1'), luma, chroma]);
  };
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${size} H${size} F${fps}:1 Ip A1:1 C420jpeg\n`, 'latin1')];
  for (const shot of shots) {
    const frame = frameOf(shot.picture);
    for (let i = 0; i < shot.frames; i++) parts.push(frame);
  }
  return Buffer.concat(parts);
}
