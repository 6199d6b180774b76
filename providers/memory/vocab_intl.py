"""German, French and Spanish word lists, each word mapped to the English word values use.

Relatives, pets and reply languages are stored under their English names so a fact learnt in
one language can be forgotten in another ("mein Bruder" and "my brother" are one family
member). Job titles and diets stay as the user said them.
"""

from __future__ import annotations

from .wordlists import pairs, phrases

RELATIVES_DE = pairs(
    """
    frau=wife, ehefrau=wife, mann=husband, ehemann=husband, partner=partner, partnerin=partner,
    sohn=son, tochter=daughter, bruder=brother, schwester=sister, mutter=mother, mama=mother,
    vater=father, papa=father, oma=grandmother, opa=grandfather, großmutter=grandmother,
    großvater=grandfather, tante=aunt, onkel=uncle, cousin=cousin, cousine=cousin,
    enkel=grandson, enkelin=granddaughter, kind=child, kinder=children, söhne=sons,
    töchter=daughters, brüder=brothers, schwestern=sisters, geschwister=siblings,
    verlobte=fiancé(e), verlobter=fiancé
    """
)

RELATIVES_FR = pairs(
    """
    femme=wife, épouse=wife, mari=husband, époux=husband, compagnon=partner, compagne=partner,
    conjoint=partner, conjointe=partner, fils=son, fille=daughter, frère=brother, soeur=sister,
    sœur=sister, mère=mother, maman=mother, père=father, papa=father, grand-mère=grandmother,
    grand-père=grandfather, tante=aunt, oncle=uncle, cousin=cousin, cousine=cousin,
    enfant=child, enfants=children, frères=brothers, soeurs=sisters, sœurs=sisters,
    filles=daughters, petit-fils=grandson, petite-fille=granddaughter, fiancé=fiancé,
    fiancée=fiancée
    """
)

RELATIVES_ES = pairs(
    """
    esposa=wife, mujer=wife, esposo=husband, marido=husband, pareja=partner, novio=boyfriend,
    novia=girlfriend, hijo=son, hija=daughter, hermano=brother, hermana=sister, madre=mother,
    mamá=mother, padre=father, papá=father, abuela=grandmother, abuelo=grandfather, tía=aunt,
    tío=uncle, primo=cousin, prima=cousin, hijos=children, hijas=daughters, hermanos=siblings,
    hermanas=sisters, nieto=grandson, nieta=granddaughter
    """
)

PETS_DE = pairs(
    """
    hund=dog, hunde=dog, hündin=dog, welpe=dog, katze=cat, katzen=cat, kater=cat, kätzchen=cat,
    hase=rabbit, hasen=rabbit, kaninchen=rabbit, hamster=hamster, meerschweinchen=guinea pig,
    vogel=bird, wellensittich=budgie, papagei=parrot, schildkröte=tortoise, pferd=horse,
    fisch=fish, fische=fish, schlange=snake, ratte=rat, maus=mouse, frettchen=ferret
    """
)

PETS_FR = pairs(
    """
    chien=dog, chienne=dog, chiot=dog, chat=cat, chatte=cat, chaton=cat, lapin=rabbit,
    hamster=hamster, cochon d'inde=guinea pig, oiseau=bird, perroquet=parrot, perruche=budgie,
    tortue=tortoise, cheval=horse, poisson=fish, serpent=snake, furet=ferret, rat=rat,
    souris=mouse, chiens=dog, chats=cat
    """
)

PETS_ES = pairs(
    """
    perro=dog, perra=dog, perrito=dog, cachorro=dog, gato=cat, gata=cat, gatito=cat,
    conejo=rabbit, hámster=hamster, cobaya=guinea pig, pájaro=bird, loro=parrot,
    periquito=budgie, tortuga=tortoise, caballo=horse, pez=fish, peces=fish, serpiente=snake,
    hurón=ferret, perros=dog, gatos=cat
    """
)

LANGUAGES_DE = pairs(
    """
    deutsch=German, englisch=English, französisch=French, spanisch=Spanish, italienisch=Italian,
    portugiesisch=Portuguese, niederländisch=Dutch, polnisch=Polish, russisch=Russian,
    türkisch=Turkish, arabisch=Arabic, chinesisch=Chinese, japanisch=Japanese, griechisch=Greek,
    schwedisch=Swedish, ukrainisch=Ukrainian, koreanisch=Korean, hindi=Hindi
    """
)

LANGUAGES_FR = pairs(
    """
    français=French, francais=French, anglais=English, allemand=German, espagnol=Spanish,
    italien=Italian, portugais=Portuguese, néerlandais=Dutch, polonais=Polish, russe=Russian,
    turc=Turkish, arabe=Arabic, chinois=Chinese, japonais=Japanese, grec=Greek, suédois=Swedish,
    ukrainien=Ukrainian, coréen=Korean, breton=Breton
    """
)

LANGUAGES_ES = pairs(
    """
    español=Spanish, castellano=Spanish, inglés=English, ingles=English, alemán=German,
    francés=French, italiano=Italian, portugués=Portuguese, neerlandés=Dutch, polaco=Polish,
    ruso=Russian, turco=Turkish, árabe=Arabic, chino=Chinese, japonés=Japanese, griego=Greek,
    catalán=Catalan, gallego=Galician, euskera=Basque, coreano=Korean
    """
)

JOBS_DE = phrases(
    """
    lehrer, lehrerin, arzt, ärztin, ingenieur, ingenieurin, krankenpfleger, krankenschwester,
    pfleger, pflegerin, entwickler, entwicklerin, softwareentwickler, softwareentwicklerin,
    programmierer, programmiererin, student, studentin, rentner, rentnerin, koch, köchin,
    anwalt, anwältin, designer, designerin, verkäufer, verkäuferin, architekt, architektin,
    journalist, journalistin, apotheker, apothekerin, tierarzt, tierärztin, bäcker, bäckerin,
    friseur, friseurin, kellner, kellnerin, buchhalter, buchhalterin, elektriker, elektrikerin,
    mechaniker, mechanikerin, polizist, polizistin, beamter, beamtin, manager, managerin,
    berater, beraterin, professor, professorin, schüler, schülerin, erzieher, erzieherin,
    physiotherapeut, physiotherapeutin, psychologe, psychologin, informatiker, informatikerin,
    übersetzer, übersetzerin, schreiner, schreinerin, tischler, tischlerin
    """
)

JOBS_FR = phrases(
    """
    infirmier, infirmière, médecin, ingénieur, ingénieure, professeur, professeure, prof,
    enseignant, enseignante, développeur, développeuse, avocat, avocate, étudiant, étudiante,
    comptable, cuisinier, cuisinière, chef, designer, retraité, retraitée, boulanger,
    boulangère, vendeur, vendeuse, architecte, pharmacien, pharmacienne, journaliste, serveur,
    serveuse, vétérinaire, dentiste, infographiste, programmeur, programmeuse, consultant,
    consultante, chercheur, chercheuse, traducteur, traductrice, électricien, électricienne,
    plombier, mécanicien, coiffeur, coiffeuse, policier, policière, fonctionnaire, instituteur,
    institutrice, secrétaire, kiné, kinésithérapeute, psychologue
    """
)

JOBS_ES = phrases(
    """
    enfermero, enfermera, médico, médica, ingeniero, ingeniera, profesor, profesora, maestro,
    maestra, abogado, abogada, estudiante, programador, programadora, desarrollador,
    desarrolladora, cocinero, cocinera, chef, contable, contador, contadora, diseñador,
    diseñadora, jubilado, jubilada, camarero, camarera, periodista, arquitecto, arquitecta,
    farmacéutico, farmacéutica, veterinario, veterinaria, dentista, panadero, panadera,
    vendedor, vendedora, electricista, fontanero, mecánico, peluquero, peluquera, policía,
    funcionario, funcionaria, secretario, secretaria, psicólogo, psicóloga, traductor,
    traductora, investigador, investigadora, consultor, consultora
    """
)

DIETS_DE = phrases(
    """
    vegetarier, vegetarierin, veganer, veganerin, vegan, vegetarisch, pescetarier,
    pescetarierin, flexitarier, flexitarierin, zöliakiekranker
    """
)

DIETS_FR = phrases(
    """
    végétarien, végétarienne, vegetarien, vegetarienne, végane, vegane, végan, vegan,
    végétalien, végétalienne, pescétarien, pescétarienne, flexitarien, flexitarienne
    """
)

DIETS_ES = phrases(
    """
    vegetariano, vegetariana, vegano, vegana, pescetariano, pescetariana, flexitariano,
    flexitariana
    """
)

HEALTH_DE = phrases(
    """
    diabetiker, diabetikerin, asthmatiker, asthmatikerin, epileptiker, epileptikerin, schwanger,
    zuckerkrank, taub, blind
    """
)

HEALTH_FR = phrases(
    """
    diabétique, asthmatique, épileptique, enceinte, sourd, sourde, aveugle, cœliaque, coeliaque
    """
)

HEALTH_ES = phrases(
    """
    diabético, diabética, asmático, asmática, epiléptico, epiléptica, embarazada, sordo, sorda,
    ciego, ciega, celíaco, celíaca
    """
)
