"""A written PDF turned into a CMYK PDF/X-1a:2003 file, the kind DriveThruCards asks for.

PDF/X-1a forbids RGB and transparency, and cardgen's faces use both (starfields' glows and nebulae, faded images
and SVGs, colours with alpha, gradients with soft masks). So each page is flattened in two layers:

- the art: the page drawn by pdfium without the glyphs of its type, at the shop's resolution (300 dpi), every
  transparency composited as the RGB file shows it, then separated into CMYK (`separation.Separation.image`: the
  profile, the ink limit) and embedded as a JPEG (DCTDecode, DeviceCMYK) — or losslessly (Flate) when the JPEG's
  decoded pixels would pass the ink limit;
- the type, on top, as vector text in its embedded fonts: each text-showing operator that fills opaque glyphs in a
  device colour stays where it was in the content stream (so its position, clip and font are the original's), its
  colour in CMYK (`Separation.colour`, neutral greys in black ink alone); everything else in that stream is kept
  only for the graphics state it sets (paths still clip, nothing is painted) — shadings, images and graphics states
  are left out. Text drawn translucent or as outlines (a glow, an outline) is part of the art instead; in the art
  layer the opaque glyphs are drawn invisible (`3 Tr`), so every glyph takes its room as before.

What this changes: an element a layout draws over type (rare: type is drawn last in every bundled layout) would be
covered in the RGB file and is not here; vector shapes are 300 dpi pixels. The rest of the file is the original's:
page boxes (ArtBox dropped — PDF/X wants TrimBox or ArtBox, not both; a page without TrimBox gets its MediaBox),
fonts, metadata. The document gets an OutputIntent naming the print condition (FOGRA39, registered with the ICC),
`GTS_PDFXVersion`, `Trapped`, PDF 1.4 without object streams, and a deterministic ID.
"""

from __future__ import annotations

import hashlib
import io
import zlib
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from cardgen.render.separation import CONDITION, CONDITION_NAME, REGISTRY, Separation, total_ink

ART = "/CardgenArt"
JPEG_QUALITY = 92
STROKE_COLOUR = {"RG", "G", "K", "CS", "SC", "SCN"}
PAINT = {"f", "F", "f*", "S", "s", "B", "B*", "b", "b*"}
SHOW = {"Tj", "TJ", "'", '"'}


@dataclass(frozen=True)
class _State:
    """What decides whether a glyph can stay vector: its text render mode, fill alpha, fill colour."""

    render: int = 0
    opaque: bool = True
    space: str = "/DeviceGray"
    fill: tuple[float, ...] | None = (0.0,)  # in `space`; None: a colour that is not a device colour (a pattern)


@dataclass
class _Streams:
    """One content stream rewritten twice: art (glyphs hidden) and type (only glyphs painted)."""

    art: list[Any] = field(default_factory=list)
    type: list[Any] = field(default_factory=list)


def to_pdfx(data: bytes, separation: Separation, dpi: int = 300) -> bytes:
    """The PDF `data` as PDF/X-1a:2003 in CMYK (see the module's docstring)."""
    import pikepdf

    pdf = pikepdf.open(io.BytesIO(data))
    flattener = _Flattener(pdf, separation)
    pages = [flattener.page(page) for page in pdf.pages]
    for form, streams in flattener.forms.values():
        form.write(pikepdf.unparse_content_stream(streams.art))
    for page, streams in zip(pdf.pages, pages, strict=True):
        page.Contents = pdf.make_stream(pikepdf.unparse_content_stream(streams.art))
    art = io.BytesIO()
    pdf.save(art)
    images = _rasters(art.getvalue(), pdf, separation, dpi)
    for form, streams in flattener.forms.values():
        form.write(pikepdf.unparse_content_stream(streams.type))
        _keep_only_type(form)
        for key in ("/Group",):
            if key in form:
                del form[key]
    made: dict[str, Any] = {}
    for page, streams, image in zip(pdf.pages, pages, images, strict=True):
        _finish_page(pdf, page, streams, image, made)
    _mark(pdf)
    out = io.BytesIO()
    pdf.save(
        out, force_version="1.4", object_stream_mode=pikepdf.ObjectStreamMode.disable, compress_streams=True,
        deterministic_id=True, fix_metadata_version=False,
    )  # fmt: skip
    return out.getvalue()


class _Flattener:
    """Rewrites a document's content streams, each form once however many pages place it."""

    def __init__(self, pdf: Any, separation: Separation):
        self.pdf = pdf
        self.separation = separation
        self.forms: dict[tuple[int, int], tuple[Any, _Streams]] = {}

    def page(self, page: Any) -> _Streams:
        import pikepdf

        return self.rewrite(pikepdf.parse_content_stream(page), page.obj.get("/Resources", pikepdf.Dictionary()))

    def rewrite(self, operations: list[Any], resources: Any) -> _Streams:
        import pikepdf

        streams = _Streams()
        stack: list[_State] = []
        state = _State()
        for instruction in operations:
            if isinstance(instruction, pikepdf.ContentStreamInlineImage):
                streams.art.append(instruction)
                continue
            operands, operator = list(instruction.operands), str(instruction.operator)
            art, type_ = [instruction], [instruction]
            if operator == "q":
                stack.append(state)
            elif operator == "Q":
                state = stack.pop() if stack else _State()
            elif operator == "gs":
                state = replace(state, opaque=state.opaque and _opaque(resources, operands[0]))
                type_ = []
            elif operator == "Tr":
                state = replace(state, render=int(operands[0]))
            elif operator in ("rg", "g", "k", "cs", "sc", "scn"):
                state = _fill(state, operator, operands)
                type_ = self._colour(state)
            elif operator in STROKE_COLOUR or operator in ("sh",):
                type_ = []
            elif operator in PAINT:
                type_ = [pikepdf.ContentStreamInstruction([], pikepdf.Operator("n"))]
            elif operator == "Do":
                art, type_ = self._placed(operands[0], resources, instruction)
            elif operator in SHOW:
                vector = state.render == 0 and state.opaque and state.fill is not None
                hidden = _invisible(instruction, state.render)
                art, type_ = (hidden, [instruction]) if vector else ([instruction], hidden)
            streams.art.extend(art)
            streams.type.extend(type_)
        return streams

    def _colour(self, state: _State) -> list[Any]:
        import pikepdf

        if state.fill is None:
            return []
        if state.space == "/DeviceCMYK":
            inks = tuple(float(value) for value in state.fill)
        else:
            rgb = state.fill * 3 if state.space == "/DeviceGray" else state.fill
            red, green, blue = (float(value) for value in rgb[:3])
            inks = self.separation.colour(red, green, blue, text=True)
        numbers = [Decimal(f"{value:.4f}") for value in inks]
        return [pikepdf.ContentStreamInstruction(numbers, pikepdf.Operator("k"))]

    def _placed(self, name: Any, resources: Any, instruction: Any) -> tuple[list[Any], list[Any]]:
        """A `Do`: an image is art only; a form is rewritten (once) and placed in both layers."""
        import pikepdf

        xobject = resources.get("/XObject", {}).get(str(name))
        if xobject is None or xobject.get("/Subtype") != pikepdf.Name.Form:
            return [instruction], []
        key = xobject.objgen
        if key not in self.forms:
            self.forms[key] = (xobject, _Streams())  # placed first: a form that places itself stops here
            streams = self.rewrite(pikepdf.parse_content_stream(xobject), xobject.get("/Resources", resources))
            self.forms[key] = (xobject, streams)
        return [instruction], [instruction]


def _opaque(resources: Any, name: Any) -> bool:
    """Whether a graphics state leaves fills opaque (no fill alpha below 1, no soft mask)."""
    import pikepdf

    state = resources.get("/ExtGState", {}).get(str(name))
    if state is None:
        return True
    alpha = float(state.get("/ca", 1))
    mask = state.get("/SMask", pikepdf.Name.None_)
    return alpha >= 1 and mask == pikepdf.Name.None_


def _fill(state: _State, operator: str, operands: list[Any]) -> _State:
    spaces = {"rg": "/DeviceRGB", "g": "/DeviceGray", "k": "/DeviceCMYK"}
    if operator in spaces:
        return replace(state, space=spaces[operator], fill=tuple(float(value) for value in operands))
    if operator == "cs":
        space = str(operands[0])
        known = space in ("/DeviceRGB", "/DeviceGray", "/DeviceCMYK")
        start = {"/DeviceRGB": (0.0, 0.0, 0.0), "/DeviceGray": (0.0,), "/DeviceCMYK": (0.0, 0.0, 0.0, 1.0)}
        return replace(state, space=space, fill=start[space] if known else None)
    numeric = all(isinstance(value, (int, float, Decimal)) for value in operands)
    if state.space in ("/DeviceRGB", "/DeviceGray", "/DeviceCMYK") and numeric:
        return replace(state, fill=tuple(float(value) for value in operands))
    return replace(state, fill=None)


def _invisible(instruction: Any, render: int) -> list[Any]:
    """A text-showing operator drawn invisible (render mode 3), the mode restored after: its glyphs still advance."""
    import pikepdf

    return [
        pikepdf.ContentStreamInstruction([3], pikepdf.Operator("Tr")),
        instruction,
        pikepdf.ContentStreamInstruction([render], pikepdf.Operator("Tr")),
    ]


def _keep_only_type(holder: Any) -> None:
    """A page's or form's resources reduced to what its type layer uses: fonts and forms (images, shadings,
    graphics states and colour spaces belong to the art, already flattened)."""
    import pikepdf

    resources = holder.get("/Resources")
    if resources is None:
        return
    kept = pikepdf.Dictionary()
    if "/Font" in resources:
        kept.Font = resources.Font
    forms = {
        name: xobject
        for name, xobject in resources.get("/XObject", {}).items()
        if xobject.get("/Subtype") == pikepdf.Name.Form
    }
    if forms:
        kept.XObject = pikepdf.Dictionary(forms)
    holder.Resources = kept


@dataclass(frozen=True)
class _Raster:
    """A page's flattened art as an image XObject's stream data and dictionary values."""

    data: bytes
    size: tuple[int, int]
    filter: str  # /DCTDecode | /FlateDecode
    digest: str


def _rasters(art_pdf: bytes, pdf: Any, separation: Separation, dpi: int) -> list[_Raster]:
    """Each page's art rendered at `dpi` and separated; pages that look the same share one image."""
    import pypdfium2 as pdfium

    from cardgen.render import raster
    from cardgen.render.raster import render_page

    document = pdfium.PdfDocument(art_pdf)
    rasters: list[_Raster] = []
    drawn: dict[bytes, _Raster] = {}
    try:
        for index, page in enumerate(pdf.pages):
            same = _look(page)  # a page drawn like an earlier one (a shared card back) is rendered once
            if same not in drawn:
                # pdfium rounds pixel sizes up: a hair off the scale keeps 69.85 mm at 300 dpi 825 px, never fewer
                image = render_page(document, index, scale=dpi / 72 * (1 - 1e-6), fill_color=(255, 255, 255, 255))
                drawn[same] = _encoded(separation.image(image), separation)
            rasters.append(drawn[same])
    finally:
        raster.close(document)
    return rasters


def _look(page: Any) -> bytes:
    """What decides how a page's art looks: its size, its content and the objects its resources name."""
    import pikepdf

    resources = page.obj.get("/Resources", pikepdf.Dictionary())
    named = sorted(
        f"{kind}{name}={value.objgen}"
        for kind in ("/XObject", "/ExtGState", "/Shading", "/Pattern", "/Font", "/ColorSpace")
        for name, value in resources.get(kind, {}).items()
    )
    head = f"{[float(v) for v in page.MediaBox]}|{'|'.join(named)}|".encode()
    return hashlib.sha256(head + page.Contents.read_bytes()).digest()


def _encoded(cmyk: Any, separation: Separation) -> _Raster:
    """CMYK pixels as a JPEG, or as Flate where the JPEG's decoded pixels would pass the ink limit."""
    import numpy as np
    from PIL import Image

    buffer = io.BytesIO()
    cmyk.save(buffer, "JPEG", quality=JPEG_QUALITY, subsampling=0, optimize=False)
    jpeg = buffer.getvalue()
    with Image.open(io.BytesIO(jpeg)) as decoded:
        worst = float(total_ink(np.asarray(decoded)).max())
    raw = cmyk.tobytes()
    if worst <= separation.ink_limit:
        data, kind = jpeg, "/DCTDecode"
    else:
        data, kind = zlib.compress(raw, 6), "/FlateDecode"
    return _Raster(data, cmyk.size, kind, hashlib.sha256(raw).hexdigest())


def _finish_page(pdf: Any, page: Any, streams: _Streams, raster: _Raster, made: dict[str, Any]) -> None:
    """The page as its art image under its type layer, with PDF/X's boxes."""
    import pikepdf

    box = [float(value) for value in page.MediaBox]
    image = _image(pdf, raster, made)
    _keep_only_type(page)
    resources = page.obj.Resources
    if "/XObject" not in resources:
        resources.XObject = pikepdf.Dictionary()
    resources.XObject[ART] = image
    width, height = box[2] - box[0], box[3] - box[1]
    head = f"q {width:.4f} 0 0 {height:.4f} {box[0]:.4f} {box[1]:.4f} cm {ART} Do Q\nq\n".encode()
    page.Contents = pdf.make_stream(head + pikepdf.unparse_content_stream(streams.type) + b"\nQ\n")
    for key in ("/ArtBox", "/Trans", "/Group"):
        if key in page.obj:
            del page.obj[key]
    if "/TrimBox" not in page.obj:
        page.obj.TrimBox = page.MediaBox


def _image(pdf: Any, raster: _Raster, made: dict[str, Any]) -> Any:
    """The image XObject of a raster, one per distinct picture in the document (`made`: those made so far)."""
    import pikepdf

    if raster.digest in made:
        return made[raster.digest]
    stream = pikepdf.Stream(pdf, raster.data)
    stream.Type = pikepdf.Name.XObject
    stream.Subtype = pikepdf.Name.Image
    stream.Width, stream.Height = raster.size
    stream.ColorSpace = pikepdf.Name.DeviceCMYK
    stream.BitsPerComponent = 8
    stream.Filter = pikepdf.Name(raster.filter)
    if raster.filter == "/DCTDecode":  # Pillow writes Adobe's inverted CMYK JPEG (APP14), read with /Decode
        stream.Decode = pikepdf.Array([1, 0] * 4)
    made[raster.digest] = pdf.make_indirect(stream)
    return made[raster.digest]


def _mark(pdf: Any) -> None:
    """The document-level keys of PDF/X-1a:2003: the version, trapping, and the OutputIntent."""
    import pikepdf

    if "/Metadata" in pdf.Root:
        del pdf.Root["/Metadata"]
    info = pdf.docinfo
    info.GTS_PDFXVersion = pikepdf.String("PDF/X-1a:2003")
    info.Trapped = pikepdf.Name("/False")
    intent = pikepdf.Dictionary(
        Type=pikepdf.Name.OutputIntent,
        S=pikepdf.Name.GTS_PDFX,
        OutputConditionIdentifier=pikepdf.String(CONDITION),
        OutputCondition=pikepdf.String(CONDITION_NAME),
        RegistryName=pikepdf.String(REGISTRY),
        Info=pikepdf.String("Coated FOGRA39 (ISO 12647-2:2004)"),
    )
    pdf.Root.OutputIntents = pikepdf.Array([intent])
